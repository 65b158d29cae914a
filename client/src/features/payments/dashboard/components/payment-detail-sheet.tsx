import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { PaymentDetailView, type PosterMerchant } from "./payment-detail";

/** The detail of one payment in a sheet from the right (full width on a phone); closed when `id` is null. */
export function PaymentDetailSheet({
  id,
  merchant,
  onClose,
}: {
  id: string | null;
  merchant: PosterMerchant;
  onClose: () => void;
}) {
  return (
    <Sheet open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <SheetContent
        side="right"
        closeLabel="Close payment details"
        className="w-full overflow-y-auto sm:max-w-xl"
      >
        <SheetHeader>
          <SheetTitle>Payment details</SheetTitle>
          <SheetDescription>
            Amounts, link and QR code, transactions and every status change.
          </SheetDescription>
        </SheetHeader>
        <div className="px-4 pb-8">{id ? <PaymentDetailView id={id} merchant={merchant} /> : null}</div>
      </SheetContent>
    </Sheet>
  );
}
