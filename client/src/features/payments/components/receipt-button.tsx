import type { PublicPayment } from "@common/payments";
import { FileDown } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/hooks/use-toast";
import { errorText } from "@/lib/error-text";

/** Downloads the payer's receipt (PDF); pdf-lib and the layout load only when it is asked for. */
export function ReceiptButton({
  payment,
  network,
  ...props
}: Omit<React.ComponentProps<typeof Button>, "onClick"> & { payment: PublicPayment; network: string }) {
  const [making, setMaking] = React.useState(false);
  const download = async () => {
    setMaking(true);
    try {
      const { downloadReceipt } = await import("../receipt-pdf");
      await downloadReceipt({
        payment,
        network,
        receiptUrl: `${window.location.origin}/payment/${payment.reference}`,
      });
    } catch (error) {
      toast({
        variant: "destructive",
        title: "The receipt was not made",
        description: `${errorText(error).replace(/\.$/, "")}. Try again, or keep this page's address as your receipt.`,
      });
    } finally {
      setMaking(false);
    }
  };
  return (
    <Button variant="outline" onClick={download} disabled={making} data-testid="download-receipt" {...props}>
      {making ? <Spinner size="sm" /> : <FileDown aria-hidden="true" />} Download receipt (PDF)
    </Button>
  );
}
