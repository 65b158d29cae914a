import * as React from "react";
import { useMerchant } from "../api/get-merchant";
import { useLiveMerchant } from "../use-live-merchant";
import { merchantQueryState } from "./merchant-query-state";
import { NoBusinessPrompt } from "./no-business-prompt";
import { PaymentDetailSheet } from "./payment-detail-sheet";
import { PaymentHistory } from "./payment-history";

const ignore = () => {};

/** The /payments page: the business's whole history with its detail view, kept live; no creation form. */
export function PaymentHistoryPanel() {
  const merchant = useMerchant();
  const [openId, setOpenId] = React.useState<string | null>(null);
  const fallback = merchantQueryState(merchant);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt reason="Register your business on the merchant dashboard to receive payments; they are listed here." />
    );
  }
  return (
    <>
      <LiveHistory />
      <PaymentHistory
        onOpen={setOpenId}
        emptyText="No payments yet. Create one on the merchant dashboard and show its QR code to your customer."
      />
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
