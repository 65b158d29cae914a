import { referenceParams } from "@common/payments";
import { Zap } from "lucide-react";
import { useSearch } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { PendingFeature } from "@/components/layout/pending-feature";
import { sendWithBrowserWallet } from "@/features/payments/browser-wallet-transfer";
import { PayView } from "@/features/payments/components/pay-view";
import { PaymentLookupForm } from "@/features/payments/components/payment-lookup-form";
import { ThemeToggle } from "@/features/theme/theme-toggle";
import { useDocumentTitle } from "@/lib/document-title";

/**
 * /easy-payment?ref=<reference>: the fewest steps to pay one payment. Paying from a social account's managed wallet
 * arrives with social sign-in; until then the payment opens straight in the pay view (browser wallet in one click,
 * or the QR code for a mobile wallet). Without a valid reference the page asks for one.
 */
export default function EasyPaymentPage() {
  const ref = new URLSearchParams(useSearch()).get("ref")?.trim() ?? "";
  const valid = referenceParams.safeParse({ reference: ref }).success;
  useDocumentTitle("Easy Payment");
  if (valid)
    return (
      <PayView key={ref} reference={ref} sendTransfer={sendWithBrowserWallet} headerEnd={<ThemeToggle />} />
    );
  return (
    <PageFrame
      title="Easy Payment"
      icon={Zap}
      width="narrow"
      description="The simplest way to pay: open a payment from its link and pay it with your wallet in one step."
    >
      <div className="flex flex-col gap-6">
        {ref ? (
          <p role="alert" className="text-destructive-emphasis text-sm">
            This link does not carry a valid payment reference. Check it with the merchant, or enter the
            reference below.
          </p>
        ) : null}
        <PaymentLookupForm to={(reference) => `/easy-payment?ref=${reference}`} submitLabel="Open payment" />
        <PendingFeature title="Paying with a social sign-in wallet is not available yet">
          It opens together with social sign-in. Today, pay from a browser wallet or scan the payment's QR
          code with any mobile wallet.
        </PendingFeature>
      </div>
    </PageFrame>
  );
}
