import { useQueryClient } from "@tanstack/react-query";
import { ChartColumn } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { useMerchant } from "@/features/payments/dashboard/api/get-merchant";
import { merchantQueryState } from "@/features/payments/dashboard/components/merchant-query-state";
import { NoBusinessPrompt } from "@/features/payments/dashboard/components/no-business-prompt";
import { useLiveMerchant } from "@/features/payments/dashboard/use-live-merchant";
import { reportsQueryKeyRoot } from "@/features/reports/api/get-report-summary";
import { ReportsView } from "@/features/reports/components/reports-view";

/** Any change to one of the business's payments (paid, expired...) refetches the report on screen. */
function LiveReports() {
  const queryClient = useQueryClient();
  useLiveMerchant(() => {
    void queryClient.invalidateQueries({ queryKey: reportsQueryKeyRoot });
  });
  return null;
}

function MerchantReports() {
  const merchant = useMerchant();
  const fallback = merchantQueryState(merchant);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt reason="Reports are built from the payments your business receives. Register it on the merchant dashboard first." />
    );
  }
  return (
    <>
      <LiveReports />
      <ReportsView businessName={merchant.data.name} />
    </>
  );
}

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
        <MerchantReports />
      ) : (
        <SignInPrompt reason="Sign in to see reports on your business's payments." />
      )}
    </PageFrame>
  );
}
