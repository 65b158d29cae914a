import * as React from "react";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { useT } from "@/i18n/i18n";
import { LoadingPart } from "./loading-part";
import type { PosterMerchant } from "./payment-detail";

// Timeline, transactions, refunds, QR and poster: loaded when a payment is opened (decision 025).
const PaymentDetailView = React.lazy(() =>
  import("./payment-detail").then((m) => ({ default: m.PaymentDetailView })),
);

/** The detail of one payment in a sheet from the right (full width on a phone); closed when `id` is null. */
export function PaymentDetailSheet({
  id,
  merchant,
  onClose,
  onOpen,
}: {
  id: string | null;
  merchant: PosterMerchant;
  onClose: () => void;
  onOpen: (id: string) => void;
}) {
  // The last payment shown: its row takes the focus back when the sheet closes (the list may have re-rendered,
  // and the sheet may have been opened from elsewhere, e.g. the new payment's "Details" button).
  const shown = React.useRef<string | null>(null);
  const t = useT();
  if (id) shown.current = id;
  return (
    <Sheet open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <SheetContent
        onCloseAutoFocus={(event) => {
          const row = document.querySelector<HTMLElement>(`[data-payment-id="${shown.current}"]`);
          if (!row) return;
          event.preventDefault();
          row.focus();
        }}
        side="right"
        closeLabel={t("merchant.detail.close")}
        className="w-full overflow-y-auto sm:max-w-xl"
      >
        <SheetHeader>
          <SheetTitle>{t("merchant.detail.title")}</SheetTitle>
          <SheetDescription>{t("merchant.detail.description")}</SheetDescription>
        </SheetHeader>
        <div className="px-4 pb-8">
          {id ? (
            <React.Suspense fallback={<LoadingPart />}>
              <PaymentDetailView key={id} id={id} merchant={merchant} onOpen={onOpen} />
            </React.Suspense>
          ) : null}
        </div>
      </SheetContent>
    </Sheet>
  );
}
