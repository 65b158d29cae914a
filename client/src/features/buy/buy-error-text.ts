import { apiErrorText, detailOf } from "@/features/payments/pay-error-text";
import { currentLocale, t } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";
import { isApiError } from "@/lib/api-error";
import { dollars } from "./format";

/**
 * The buy screens' refusals that carry a value (server/src/modules/buy/quote.ts): the order's limits, in
 * `details` beside the English sentence, said in the reader's words and currency format.
 */
function orderLimitText(details: Record<string, unknown> | undefined): string | undefined {
  const locale = currentLocale();
  const amount = (value: string) => isolate(dollars(value, locale, false), locale);
  const min = detailOf(details, "minUsd");
  if (details?.reason === "below_minimum" && min) return t("buy.error.belowMinimum", { amount: amount(min) });
  const max = detailOf(details, "maxUsd");
  if (details?.reason === "above_maximum" && max) return t("buy.error.aboveMaximum", { amount: amount(max) });
  return undefined;
}

/**
 * A failed request on the buy screens, in the buyer's language (issue 37): the shared reading of `apiErrorText`
 * (no network, too many attempts, a server fault) with the order's limits; the server's own message (English)
 * for what these screens do not know, never a status code. A browser wallet's own refusal is already in words.
 */
export function buyErrorText(error: unknown): string {
  if (!isApiError(error) && !(error instanceof TypeError) && error instanceof Error && error.message)
    return error.message.replace(/^\d{3}:\s*/, "");
  return apiErrorText(error, { byCode: ({ details }) => orderLimitText(details) });
}
