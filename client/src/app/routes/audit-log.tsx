import { MANAGER_ROLES } from "@common/team.ts";
import { ScrollText } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { Spinner } from "@/components/ui/spinner";
import { AuditLog } from "@/features/audit/components/audit-log";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { useMerchant } from "@/features/payments/dashboard/api/get-merchant";
import { merchantQueryState } from "@/features/payments/dashboard/components/merchant-query-state";
import { RoleNotice } from "@/features/team/components/role-notice";
import { mayUse } from "@/features/team/role-access";
import { useDocumentLanguage, useT } from "@/i18n/i18n";

/** Owners and admins see the business's log; without a business, the account's own (the server answers both). */
function MemberAuditLog() {
  const merchant = useMerchant();
  const t = useT();
  const fallback = merchantQueryState(merchant, t);
  if (fallback) return fallback;
  if (merchant.data && !mayUse(merchant.data.role, MANAGER_ROLES)) {
    return (
      <RoleNotice
        roles={MANAGER_ROLES}
        what="see the audit log"
        role={merchant.data.role}
        business={merchant.data.name}
        title={t("team.roleNotice.seeAuditLog")}
        detail={t("team.roleNotice.yourRole", { role: merchant.data.role, business: merchant.data.name })}
      />
    );
  }
  return <AuditLog />;
}

/** /audit-log, in the reader's language (issue 37). */
export default function AuditLogPage() {
  const { user, isLoading } = useAuth();
  useDocumentLanguage();
  const t = useT();
  return (
    <PageFrame
      title={t("team.audit.title")}
      icon={ScrollText}
      width="wide"
      description={t("team.audit.description")}
    >
      {isLoading ? (
        <Spinner size="lg" label={t("team.page.checkingSession")} />
      ) : user ? (
        <MemberAuditLog />
      ) : (
        <SignInPrompt
          reason={t("team.audit.signInReason")}
          title={t("team.page.signInTitle")}
          action={t("team.page.signIn")}
        />
      )}
    </PageFrame>
  );
}
