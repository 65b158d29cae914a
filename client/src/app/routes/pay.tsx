import { useParams } from "wouter";
import { sendWithBrowserWallet } from "@/features/payments/browser-wallet-transfer";
import { PayView } from "@/features/payments/components/pay-view";
import { PayWithoutWallet } from "@/features/social/components/pay-without-wallet";
import { ThemeToggle } from "@/features/theme/theme-toggle";
import { useDocumentTitle } from "@/lib/document-title";

export default function PayPage() {
  const { paymentReference } = useParams<{ paymentReference: string }>();
  useDocumentTitle("Pay");
  return (
    <PayView
      key={paymentReference}
      reference={paymentReference}
      sendTransfer={sendWithBrowserWallet}
      payOptions={PayWithoutWallet}
      headerEnd={<ThemeToggle />}
    />
  );
}
