import { apiErrorText } from "@/features/payments/pay-error-text";
import { t } from "@/i18n/i18n";

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
  return apiErrorText(error, {
    sentences: KNOWN_MESSAGES,
    signedOut: "pos.error.signedOut",
    twoFactor: "pos.error.twoFactor",
    forbidden: "pos.error.forbidden",
    byCode: ({ code, status }) => {
      if (action === "charge") return code === "VALIDATION_ERROR" ? t("pos.error.amountRefused") : undefined;
      if (code === "NOT_FOUND" || status === 404) return t("pos.error.paymentNotFound");
      if (code === "CONFLICT" || status === 409) return t("pos.error.cannotCancel");
      return undefined;
    },
  });
}
