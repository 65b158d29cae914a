import type { PublicPayment } from "@common/payments";
import { FileDown } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/hooks/use-toast";
import { useLocale, useT } from "@/i18n/i18n";
import { payErrorText } from "../pay-error-text";
import { payToastWords } from "../toast-words";

/** Downloads the payer's receipt (PDF); pdf-lib and the layout load only when it is asked for. */
export function ReceiptButton({
  payment,
  network,
  ...props
}: Omit<React.ComponentProps<typeof Button>, "onClick"> & { payment: PublicPayment; network: string }) {
  const t = useT();
  const locale = useLocale();
  const [making, setMaking] = React.useState(false);
  const download = async () => {
    setMaking(true);
    try {
      const { downloadReceipt } = await import("../receipt-pdf");
      await downloadReceipt({
        payment,
        network,
        locale,
        receiptUrl: `${window.location.origin}/payment/${payment.reference}`,
      });
    } catch (error) {
      toast({
        variant: "destructive",
        title: t("pay.receipt.pdfFailed"),
        description: t("pay.receipt.pdfFailedHint", { reason: payErrorText(error) }),
        ...payToastWords(t, locale),
      });
    } finally {
      setMaking(false);
    }
  };
  return (
    <Button variant="outline" onClick={download} disabled={making} data-testid="download-receipt" {...props}>
      {making ? <Spinner size="sm" /> : <FileDown aria-hidden="true" />} {t("pay.receipt.download")}
    </Button>
  );
}
