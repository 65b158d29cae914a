import { isApiError } from "@/lib/api-client";

/** The server's own message for a failed request (`{ error: { message } }`), not the raw JSON body. */
export function errorText(error: unknown): string {
  if (isApiError(error)) {
    const message = (error.body as { error?: { message?: unknown } } | undefined)?.error?.message;
    if (typeof message === "string") return message;
    return error.status >= 500
      ? "The server had a problem. Please try again in a moment."
      : error.message.replace(/^\d{3}: /, "");
  }
  if (error instanceof Error) return error.message;
  return "Something went wrong. Please try again.";
}
