import { isApiError } from "@/lib/api-error";

const BY_STATUS: Record<number, string> = {
  401: "You are signed out. Sign in and try again.",
  403: "You do not have access to this.",
  404: "That could not be found.",
  408: "The server took too long to answer. Please try again.",
  413: "That is too large to send.",
  429: "Too many attempts. Please wait a moment and try again.",
};

/**
 * What a failed request means, in the words a person reads: the server's own message (`{ error: { message } }`),
 * never a status code ("422: …") nor a raw JSON body. The one place errors become text: toasts keep their titles
 * and take this as their description; inline errors show it as it is.
 */
export function errorText(error: unknown): string {
  if (isApiError(error)) {
    const message = (error.body as { error?: { message?: unknown } } | undefined)?.error?.message;
    if (typeof message === "string" && message.trim()) return message;
    if (error.status >= 500) return "The server had a problem. Please try again in a moment.";
    const known = BY_STATUS[error.status];
    if (known) return known;
    // A plain-text answer is the server's sentence; a status text or a JSON blob is not.
    const text = error.message.replace(/^\d{3}:\s*/, "").trim();
    if (text && !/^[[{<]/.test(text) && /\s/.test(text)) return text;
    return "The request was not accepted. Please check it and try again.";
  }
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) {
    return "Could not reach the server. Check your connection and try again.";
  }
  if (error instanceof Error && error.message) return error.message.replace(/^\d{3}:\s*/, "");
  return "Something went wrong. Please try again.";
}
