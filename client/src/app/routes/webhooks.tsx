import { MANAGER_ROLES } from "@common/team.ts";
import { Webhook } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { useMerchant } from "@/features/payments/dashboard/api/get-merchant";
import { merchantQueryState } from "@/features/payments/dashboard/components/merchant-query-state";
import { NoBusinessPrompt } from "@/features/payments/dashboard/components/no-business-prompt";
import { RoleNotice } from "@/features/team/components/role-notice";
import { mayUse } from "@/features/team/role-access";
import { WebhooksView } from "@/features/webhooks/components/webhooks-view";
import { useDocumentLanguage, useT } from "@/i18n/i18n";

function MerchantWebhooks() {
  const merchant = useMerchant();
  const t = useT();
  const fallback = merchantQueryState(merchant, t);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt
        reason={t("developers.webhooks.noBusinessReason")}
        title={t("developers.common.noBusinessTitle")}
        action={t("developers.common.registerBusiness")}
      />
    );
  }
  if (!mayUse(merchant.data.role, MANAGER_ROLES)) {
    return (
      <RoleNotice
        roles={MANAGER_ROLES}
        what="add and manage webhooks"
        role={merchant.data.role}
        business={merchant.data.name}
        title={t("developers.webhooks.roleNotice")}
        detail={t("developers.common.yourRole", { role: merchant.data.role, business: merchant.data.name })}
      />
    );
  }
  return <WebhooksView />;
}

/** /webhooks, in the reader's language (issue 37); event names, URLs and payloads stay as written. */
export default function WebhooksPage() {
  const { user, isLoading } = useAuth();
  useDocumentLanguage();
  const t = useT();
  return (
    <PageFrame
      title={t("developers.webhooks.title")}
      icon={Webhook}
      description={t("developers.webhooks.description")}
    >
      {isLoading ? (
        <Spinner size="lg" label={t("developers.common.checkingSession")} />
      ) : user ? (
        <MerchantWebhooks />
      ) : (
        <SignInPrompt
          reason={t("developers.webhooks.signInReason")}
          title={t("developers.common.signInTitle")}
          action={t("developers.common.signIn")}
        />
      )}
    </PageFrame>
  );
}
