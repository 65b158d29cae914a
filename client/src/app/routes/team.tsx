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
import { useDocumentLanguage, useT } from "@/i18n/i18n";

function BusinessTeam() {
  const merchant = useMerchant();
  const t = useT();
  const fallback = merchantQueryState(merchant, t);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt
        reason={t("team.page.noBusinessReason")}
        title={t("team.page.noBusinessTitle")}
        action={t("team.page.registerBusiness")}
      />
    );
  }
  if (!mayUse(merchant.data.role, MANAGER_ROLES)) {
    return (
      <RoleNotice
        roles={MANAGER_ROLES}
        what="manage the team"
        role={merchant.data.role}
        business={merchant.data.name}
        title={t("team.roleNotice.manageTeam")}
        detail={t("team.roleNotice.yourRole", { role: merchant.data.role, business: merchant.data.name })}
      />
    );
  }
  return <TeamView />;
}

/** /team, in the reader's language (issue 37): members and roles, invitations, ownership. */
export default function TeamPage() {
  const { user, isLoading } = useAuth();
  useDocumentLanguage();
  const t = useT();
  return (
    <PageFrame
      title={t("team.page.title")}
      icon={Users}
      width="wide"
      description={t("team.page.description")}
    >
      {isLoading ? (
        <Spinner size="lg" label={t("team.page.checkingSession")} />
      ) : user ? (
        <BusinessTeam />
      ) : (
        <SignInPrompt
          reason={t("team.page.signInReason")}
          title={t("team.page.signInTitle")}
          action={t("team.page.signIn")}
        />
      )}
    </PageFrame>
  );
}
