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

/** Owners and admins see the business's log; without a business, the account's own (the server answers both). */
function MemberAuditLog() {
  const merchant = useMerchant();
  const fallback = merchantQueryState(merchant);
  if (fallback) return fallback;
  if (merchant.data && !mayUse(merchant.data.role, MANAGER_ROLES)) {
    return (
      <RoleNotice
        roles={MANAGER_ROLES}
        what="see the audit log"
        role={merchant.data.role}
        business={merchant.data.name}
      />
    );
  }
  return <AuditLog />;
}

export default function AuditLogPage() {
  const { user, isLoading } = useAuth();
  return (
    <PageFrame
      title="Audit log"
      icon={ScrollText}
      width="wide"
      description="Who signed in, changed security settings, keys, webhooks or the receiving wallet, or sent a refund — when and from where."
    >
      {isLoading ? (
        <Spinner size="lg" label="Checking your session" />
      ) : user ? (
        <MemberAuditLog />
      ) : (
        <SignInPrompt reason="Sign in to see your business's audit log." />
      )}
    </PageFrame>
  );
}
