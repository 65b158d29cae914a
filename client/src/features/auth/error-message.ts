import { isApiError } from "@/lib/api-client";

/**
 * The error text for a toast: the spec's "<status>: <body>", with the body shortened to the server's own
 * message when it answered in the API's error shape (a raw JSON blob helps nobody).
 */
export function describeError(error: unknown): string {
  if (isApiError(error)) {
    const body = error.body as { error?: { message?: unknown } } | undefined;
    const message = body?.error?.message;
    if (typeof message === "string") return `${error.status}: ${message}`;
  }
  if (error instanceof Error) return error.message;
  return "Something went wrong. Please try again.";
}
