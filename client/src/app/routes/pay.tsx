import { useParams } from "wouter";
import { PayView, type SendTransfer } from "@/features/payments/components/pay-view";
import { useDocumentTitle } from "@/lib/document-title";

/** The wallet code (wagmi, viem) loads only when the payer presses the pay button. */
const sendTransfer: SendTransfer = (transfer, onStep) =>
  import("@/features/wallet/send-token-transfer").then((m) => m.sendTokenTransfer(transfer, onStep));

export default function PayPage() {
  const { paymentReference } = useParams<{ paymentReference: string }>();
  useDocumentTitle("Pay");
  return <PayView key={paymentReference} reference={paymentReference} sendTransfer={sendTransfer} />;
}
