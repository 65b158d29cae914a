import { ScrollText } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { Spinner } from "@/components/ui/spinner";
import { AuditLog } from "@/features/audit/components/audit-log";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";

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
        <AuditLog />
      ) : (
        <SignInPrompt reason="Sign in to see your business's audit log." />
      )}
    </PageFrame>
  );
}
