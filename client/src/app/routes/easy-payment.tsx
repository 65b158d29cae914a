import { referenceParams } from "@common/payments";
import { Zap } from "lucide-react";
import { useSearch } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { usePublicPayment } from "@/features/payments/api/get-public-payment";
import { sendWithBrowserWallet } from "@/features/payments/browser-wallet-transfer";
import { baseToDecimal, PayView, remainingBase } from "@/features/payments/components/pay-view";
import { PaymentLookupForm } from "@/features/payments/components/payment-lookup-form";
import { ManagedWalletPay } from "@/features/social/components/managed-wallet-pay";
import { ThemeToggle } from "@/features/theme/theme-toggle";
import { useDocumentTitle } from "@/lib/document-title";

/**
 * /easy-payment?ref=<reference>: the fewest steps to pay one payment. A social account pays with one button from
 * its managed wallet (sign in first, right here); the pay view below still offers a browser wallet or the QR code,
 * and shows the status as the chain reports it. Without a valid reference the page asks for one.
 */
export default function EasyPaymentPage() {
  const ref = new URLSearchParams(useSearch()).get("ref")?.trim() ?? "";
  const valid = referenceParams.safeParse({ reference: ref }).success;
  useDocumentTitle("Easy Payment");
  if (valid) return <EasyPayment key={ref} reference={ref} />;
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
        <PaymentLookupForm
          to={(reference) => `/easy-payment?ref=${reference}`}
          submitLabel="Open payment"
          action="/easy-payment"
          param="ref"
        />
      </div>
    </PageFrame>
  );
}

function EasyPayment({ reference }: { reference: string }) {
  const payment = usePublicPayment(reference).data;
  const due = payment ? baseToDecimal(remainingBase(payment), payment.token.decimals) : null;
  return (
    <>
      <div className="mx-auto w-full max-w-md px-4 pt-4">
        <ManagedWalletPay payment={payment} due={due} />
      </div>
      <PayView reference={reference} sendTransfer={sendWithBrowserWallet} headerEnd={<ThemeToggle />} />
    </>
  );
}
