import { History } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { PaymentHistoryPanel } from "@/features/payments/dashboard/components/payment-history-panel";

export default function PaymentHistoryPage() {
  const { user, isLoading } = useAuth();
  return (
    <PageFrame
      title="Payment History"
      icon={History}
      width="wide"
      description="Every payment your business has received, with its status, amount and transaction."
    >
      {isLoading ? (
        <Spinner size="lg" label="Checking your session" />
      ) : user ? (
        <PaymentHistoryPanel />
      ) : (
        <SignInPrompt reason="Sign in to see the payments your business has received." />
      )}
    </PageFrame>
  );
}
