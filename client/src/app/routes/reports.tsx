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
import { useDocumentLanguage, useT } from "@/i18n/i18n";

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
  const t = useT();
  const fallback = merchantQueryState(merchant, t);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt
        reason={t("reports.page.noBusinessReason")}
        title={t("reports.common.noBusinessTitle")}
        action={t("reports.common.registerBusiness")}
      />
    );
  }
  return (
    <>
      <LiveReports />
      <ReportsView businessName={merchant.data.name} />
    </>
  );
}

/** /reports, in the reader's language (issue 37); the PDF it makes stays English (its fonts are Latin-1 only). */
export default function ReportsPage() {
  const { user, isLoading } = useAuth();
  useDocumentLanguage();
  const t = useT();
  return (
    <PageFrame
      title={t("reports.page.title")}
      icon={ChartColumn}
      width="wide"
      description={t("reports.page.description")}
    >
      {isLoading ? (
        <Spinner size="lg" label={t("reports.common.checkingSession")} />
      ) : user ? (
        <MerchantReports />
      ) : (
        <SignInPrompt
          reason={t("reports.page.signInReason")}
          title={t("reports.common.signInTitle")}
          action={t("reports.common.signIn")}
        />
      )}
    </PageFrame>
  );
}
