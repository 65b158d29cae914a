import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { PaymentDetailView, type PosterMerchant } from "./payment-detail";

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
        <div className="px-4 pb-8">
          {id ? <PaymentDetailView key={id} id={id} merchant={merchant} onOpen={onOpen} /> : null}
        </div>
      </SheetContent>
    </Sheet>
  );
}
