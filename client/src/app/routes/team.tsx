import { MANAGER_ROLES } from "@common/team.ts";
import { Users } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { useMerchant } from "@/features/payments/dashboard/api/get-merchant";
import { merchantQueryState } from "@/features/payments/dashboard/components/merchant-query-state";
import { NoBusinessPrompt } from "@/features/payments/dashboard/components/no-business-prompt";
import { RoleNotice } from "@/features/team/components/role-notice";
import { TeamView } from "@/features/team/components/team-view";
import { mayUse } from "@/features/team/role-access";

function BusinessTeam() {
  const merchant = useMerchant();
  const fallback = merchantQueryState(merchant);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt reason="Register your business on the merchant dashboard, then invite your team here." />
    );
  }
  if (!mayUse(merchant.data.role, MANAGER_ROLES)) {
    return (
      <RoleNotice
        roles={MANAGER_ROLES}
        what="manage the team"
        role={merchant.data.role}
        business={merchant.data.name}
      />
    );
  }
  return <TeamView />;
}

export default function TeamPage() {
  const { user, isLoading } = useAuth();
  return (
    <PageFrame
      title="Team"
      icon={Users}
      width="wide"
      description="Who works for your business and what each person may do: owner, admins and staff."
    >
      {isLoading ? (
        <Spinner size="lg" label="Checking your session" />
      ) : user ? (
        <BusinessTeam />
      ) : (
        <SignInPrompt reason="Sign in to manage your business's team." />
      )}
    </PageFrame>
  );
}
