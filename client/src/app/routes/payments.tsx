import { History } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { PaymentHistoryPanel } from "@/features/payments/dashboard/components/payment-history-panel";
import { useDocumentLanguage, useT } from "@/i18n/i18n";

/** /payments, in the reader's language (issue 37): the list's words are in the "reports" area. */
export default function PaymentHistoryPage() {
  const { user, isLoading } = useAuth();
  useDocumentLanguage();
  const t = useT();
  return (
    <PageFrame
      title={t("reports.history.pageTitle")}
      icon={History}
      width="wide"
      description={t("reports.history.pageDescription")}
    >
      {isLoading ? (
        <Spinner size="lg" label={t("reports.common.checkingSession")} />
      ) : user ? (
        <PaymentHistoryPanel />
      ) : (
        <SignInPrompt
          reason={t("reports.history.signInReason")}
          title={t("reports.common.signInTitle")}
          action={t("reports.common.signIn")}
        />
      )}
    </PageFrame>
  );
}
