import { Link2 } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { LinksView } from "@/features/links/components/links-view";
import { useMerchant } from "@/features/payments/dashboard/api/get-merchant";
import { merchantQueryState } from "@/features/payments/dashboard/components/merchant-query-state";
import { NoBusinessPrompt } from "@/features/payments/dashboard/components/no-business-prompt";
import { useDocumentLanguage, useT } from "@/i18n/i18n";

function MerchantLinks() {
  const merchant = useMerchant();
  const t = useT();
  const fallback = merchantQueryState(merchant, t);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt
        reason={t("developers.links.noBusinessReason")}
        title={t("developers.common.noBusinessTitle")}
        action={t("developers.common.registerBusiness")}
      />
    );
  }
  return <LinksView canEdit={merchant.data.role !== "staff"} />;
}

/** /links, the merchant's payment links, in the reader's language (issue 37; the payer's /l/{slug} is `pay`'s). */
export default function LinksPage() {
  const { user, isLoading } = useAuth();
  useDocumentLanguage();
  const t = useT();
  return (
    <PageFrame
      title={t("developers.links.title")}
      icon={Link2}
      description={t("developers.links.description")}
    >
      {isLoading ? (
        <Spinner size="lg" label={t("developers.common.checkingSession")} />
      ) : user ? (
        <MerchantLinks />
      ) : (
        <SignInPrompt
          reason={t("developers.links.signInReason")}
          title={t("developers.common.signInTitle")}
          action={t("developers.common.signIn")}
        />
      )}
    </PageFrame>
  );
}
