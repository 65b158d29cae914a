import { Search } from "lucide-react";
import { useParams } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { PaymentLookupForm } from "@/features/payments/components/payment-lookup-form";
import { PaymentReceipt } from "@/features/payments/components/payment-receipt";

/** Serves /payment (look-up) and /payment/:reference (status and receipt). */
export default function PaymentPage() {
  const { reference } = useParams<{ reference?: string }>();
  return (
    <PageFrame
      title={reference ? "Payment status" : "Find a payment"}
      icon={Search}
      width="narrow"
      description={
        reference
          ? "The status and receipt of one payment, updated live."
          : "Look up a payment by the reference on your receipt or payment link."
      }
    >
      {reference ? <PaymentReceipt key={reference} reference={reference} /> : <PaymentLookupForm />}
    </PageFrame>
  );
}
