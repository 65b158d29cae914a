import { History } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { PendingFeature } from "@/components/layout/pending-feature";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";

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
        <PendingFeature title="No payments to show yet">
          Payments are not available on accounts yet. When they are, each payment will be listed here with
          search, filters and export.
        </PendingFeature>
      ) : (
        <SignInPrompt reason="Sign in to see the payments your business has received." />
      )}
    </PageFrame>
  );
}
