import * as React from "react";
import { useLocale, useT } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";
import { STATUS_LABEL_ID } from "../../payment-status";
import { REFUND_LABEL_ID } from "../../refund-status";
import { useMerchant } from "../api/get-merchant";
import { loadErrorText } from "../load-error-text";
import { useLiveMerchant } from "../use-live-merchant";
import { merchantQueryState } from "./merchant-query-state";
import { NoBusinessPrompt } from "./no-business-prompt";
import { PaymentDetailSheet } from "./payment-detail-sheet";
import { type HistoryWords, PaymentHistory } from "./payment-history";

const ignore = () => {};

/**
 * The list's words in the reader's language (the "reports" area, with the checkout's status names from "pay"), on
 * /payments and on the dashboard.
 */
export function useHistoryWords(): HistoryWords {
  const locale = useLocale();
  const t = useT();
  return React.useMemo(
    () => ({
      locale,
      title: t("reports.history.title"),
      search: t("reports.history.search"),
      searchPlaceholder: t("reports.history.searchPlaceholder"),
      status: t("reports.history.status"),
      allStatuses: t("reports.history.allStatuses"),
      statusName: (status) => t(STATUS_LABEL_ID[status]),
      refundName: (status) => t(REFUND_LABEL_ID[status]),
      loading: t("reports.history.loading"),
      loadFailed: (error) => t("reports.history.loadFailed", { error: loadErrorText(error) }),
      tryAgain: t("reports.common.tryAgain"),
      noMatch: (query, status) =>
        query && status
          ? t("reports.history.noMatchBoth", { query, status })
          : query
            ? t("reports.history.noMatchQuery", { query })
            : t("reports.history.noMatchStatus", { status }),
      clear: t("reports.history.clear"),
      count: (count, more) => t(more ? "reports.history.countShown" : "reports.history.count", { count }),
      showMore: t("reports.history.showMore"),
      order: (orderId) => t("reports.history.order", { orderId: isolate(orderId, locale) }),
      payment: t("reports.history.payment"),
      received: (received, due) =>
        t("reports.history.received", { received: isolate(received, locale), due: isolate(due, locale) }),
      partlyExpired: t("reports.history.partlyExpired"),
      openPage: t("reports.history.openPage"),
    }),
    [locale, t],
  );
}

/**
 * The /payments page: the business's whole history with its detail view, kept live; no creation form, all in the
 * reader's language (the detail sheet's words are in the "merchant" area, which the page loads too).
 */
export function PaymentHistoryPanel() {
  const merchant = useMerchant();
  const t = useT();
  const words = useHistoryWords();
  const [openId, setOpenId] = React.useState<string | null>(null);
  const fallback = merchantQueryState(merchant, t);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt
        reason={t("reports.history.noBusinessReason")}
        title={t("reports.common.noBusinessTitle")}
        action={t("reports.common.registerBusiness")}
      />
    );
  }
  return (
    <>
      <LiveHistory />
      <PaymentHistory onOpen={setOpenId} emptyText={t("reports.history.empty")} words={words} />
      <PaymentDetailSheet
        id={openId}
        merchant={{
          name: merchant.data.name,
          brandColor: merchant.data.brandColor,
          role: merchant.data.role,
        }}
        onClose={() => setOpenId(null)}
        onOpen={setOpenId}
      />
    </>
  );
}

function LiveHistory() {
  useLiveMerchant(ignore);
  return null;
}
