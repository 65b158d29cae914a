import { apiErrorText } from "../pay-error-text";

/**
 * A failed read of the business's payments or report on a translated merchant screen (/payments, /reports), in
 * the reader's language (issue 37): by the HTTP status or the error's code; the server's own (English) sentence
 * only for what these screens do not know.
 */
export function loadErrorText(error: unknown): string {
  return apiErrorText(error, { signedOut: "reports.error.signedOut", forbidden: "reports.error.forbidden" });
}
