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

function MerchantWebhooks() {
  const merchant = useMerchant();
  const fallback = merchantQueryState(merchant);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt reason="Webhooks tell your server about your business's payments. Register it on the merchant dashboard first." />
    );
  }
  if (!mayUse(merchant.data.role, MANAGER_ROLES)) {
    return (
      <RoleNotice
        roles={MANAGER_ROLES}
        what="add and manage webhooks"
        role={merchant.data.role}
        business={merchant.data.name}
      />
    );
  }
  return <WebhooksView />;
}

export default function WebhooksPage() {
  const { user, isLoading } = useAuth();
  return (
    <PageFrame
      title="Webhooks"
      icon={Webhook}
      description="Signed notifications to your own server when a payment is created, paid, completed or expires."
    >
      {isLoading ? (
        <Spinner size="lg" label="Checking your session" />
      ) : user ? (
        <MerchantWebhooks />
      ) : (
        <SignInPrompt reason="Sign in to manage your business's webhooks." />
      )}
    </PageFrame>
  );
}
