import type { PaymentStatus } from "@common/payments";
import { when } from "@/features/claim/claim-time";
import { formatTokenAmount } from "@/features/payments/format";
import { apiErrorText, detailOf } from "@/features/payments/pay-error-text";
import { STATUS_LABEL_ID } from "@/features/payments/payment-status";
import { currentLocale, t } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";

const isStatus = (value: string | undefined): value is PaymentStatus =>
  value !== undefined && Object.hasOwn(STATUS_LABEL_ID, value);

/**
 * The managed wallet's refusals that carry values (server/src/modules/wallet/service.ts, claims/service.ts), by
 * their `details.reason`: the payment's status, the balance, the daily limit, the next claim time, each in the
 * reader's words and formats; undefined for the others.
 */
export function walletRefusalText(details: Record<string, unknown> | undefined): string | undefined {
  const locale = currentLocale();
  const tokens = (key: string) => {
    const value = detailOf(details, key);
    return value === undefined ? undefined : isolate(formatTokenAmount(value, locale), locale);
  };
  const time = () => {
    const at = detailOf(details, "nextClaimAt");
    return at === undefined ? undefined : when(at, locale === "en" ? undefined : locale);
  };
  switch (details?.reason) {
    case "not_payable": {
      const status = detailOf(details, "status");
      return isStatus(status)
        ? t("wallet.error.notPayable", { status: t(STATUS_LABEL_ID[status]) })
        : undefined;
    }
    case "insufficient_balance": {
      const balance = tokens("balance");
      const amount = tokens("needed");
      return balance && amount ? t("wallet.error.balance", { balance, amount }) : undefined;
    }
    case "daily_limit": {
      const limit = tokens("dailyLimit");
      const spent = tokens("spent");
      return limit && spent ? t("wallet.error.dailyLimit", { limit, spent }) : undefined;
    }
    case "cooldown": {
      const at = time();
      return at ? t("wallet.claim.cooldown", { time: at }) : undefined;
    }
    case "budget_used": {
      const at = time();
      return at ? t("wallet.claim.budgetUsed", { time: at }) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * A failed request of the checkout's managed wallet (paying, claiming test tokens) in the payer's language
 * (issue 37): the shared reading of `apiErrorText`, then the wallet's refusals with their values; the server's
 * own (English) sentence only for what the checkout does not know, never a status code.
 */
export function walletErrorText(error: unknown): string {
  return apiErrorText(error, { byCode: ({ details }) => walletRefusalText(details) });
}
