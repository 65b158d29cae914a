import { errorBodyOf } from "@/features/payments/pay-error-text";
import { t } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-error";
import { errorText } from "@/lib/error-text";

/** What the counter was doing: a code means something else when charging (a new request) or cancelling one. */
export type PosAction = "charge" | "cancel";

/**
 * The server's sentences the counter meets (server/src/modules/payments/service.ts), by their exact English
 * wording: CONFLICT carries several meanings, and the sentence tells them apart.
 */
const KNOWN_MESSAGES: Record<string, string> = {
  "You have not registered a business yet.": "pos.error.noBusiness",
  "All 999 unique amounts for this price are in use by open payments. Change the amount slightly or wait for some to expire.":
    "pos.error.amountsInUse",
  "Too many payments of this amount are being created at once. Please try again.": "pos.error.tooManyAtOnce",
  "Payments are unavailable: no blockchain connection is configured.": "pos.error.unavailable",
};

/**
 * A failed charge or cancel in the counter's language (issue 37): by the server's error code, or its sentence where
 * a code has several meanings; the server's own (English) message only for what the counter does not know.
 */
export function posErrorText(error: unknown, action: PosAction): string {
  if (!isApiError(error)) {
    if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message))
      return t("pay.error.network");
    return t("pay.error.generic");
  }
  const { code, message } = errorBodyOf(error.body);
  const known = KNOWN_MESSAGES[message];
  if (known) return t(known);
  if (code === "RATE_LIMITED" || error.status === 429) return t("pay.error.rateLimited");
  if (code === "UNAUTHENTICATED" || error.status === 401) return t("pos.error.signedOut");
  if (code === "TWO_FACTOR_REQUIRED") return t("pos.error.twoFactor");
  if (code === "FORBIDDEN" || error.status === 403) return t("pos.error.forbidden");
  if (error.status === 408) return t("pay.error.timeout");
  if (error.status >= 500) return t("pay.error.server");
  if (action === "cancel") {
    if (code === "NOT_FOUND" || error.status === 404) return t("pos.error.paymentNotFound");
    if (code === "CONFLICT" || error.status === 409) return t("pos.error.cannotCancel");
  }
  if (action === "charge" && code === "VALIDATION_ERROR") return t("pos.error.amountRefused");
  return message || errorText(error);
}
