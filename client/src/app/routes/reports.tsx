import { ChartColumn } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { PendingFeature } from "@/components/layout/pending-feature";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";

export default function ReportsPage() {
  const { user, isLoading } = useAuth();
  return (
    <PageFrame
      title="Reports & Analytics"
      icon={ChartColumn}
      width="wide"
      description="Totals by status, revenue over time and exports of your payments for any date range."
    >
      {isLoading ? (
        <Spinner size="lg" label="Checking your session" />
      ) : user ? (
        <PendingFeature title="No reports yet">
          Reports are built from your payments, which are not available on accounts yet. They will appear
          here, with CSV and PDF export, once your business receives payments.
        </PendingFeature>
      ) : (
        <SignInPrompt reason="Sign in to see reports on your business's payments." />
      )}
    </PageFrame>
  );
}
