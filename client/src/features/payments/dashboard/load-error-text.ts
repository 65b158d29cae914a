import { t } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-error";
import { errorBodyOf } from "../pay-error-text";

/**
 * A failed read of the business's payments or report on a translated merchant screen (/payments, /reports), in
 * the reader's language (issue 37): by the HTTP status or the error's code; the server's own (English) sentence
 * only for what these screens do not know.
 */
export function loadErrorText(error: unknown): string {
  if (!isApiError(error)) {
    if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message))
      return t("pay.error.network");
    return t("pay.error.generic");
  }
  const { code, message } = errorBodyOf(error.body);
  if (code === "RATE_LIMITED" || error.status === 429) return t("pay.error.rateLimited");
  if (code === "UNAUTHENTICATED" || error.status === 401) return t("reports.error.signedOut");
  if (code === "FORBIDDEN" || error.status === 403) return t("reports.error.forbidden");
  if (error.status === 408) return t("pay.error.timeout");
  if (error.status >= 500) return t("pay.error.server");
  return message || t("pay.error.generic");
}
