import { Fingerprint } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useT } from "@/i18n/i18n";
import { useAuth } from "../auth-provider";
import { whenSignedIn } from "../when-signed-in";

/** Password-less sign-in with a passkey saved on this device or a security key. */
export function PasskeySignInButton({ onSuccess }: { onSuccess: () => void }) {
  const { passkeyMutation } = useAuth();
  const t = useT();
  return (
    <Button
      type="button"
      variant="outline"
      disabled={passkeyMutation.isPending}
      onClick={() => whenSignedIn(passkeyMutation.mutateAsync(), onSuccess)}
    >
      <Fingerprint aria-hidden="true" />
      {passkeyMutation.isPending ? t("account.passkey.waiting") : t("account.passkey.signIn")}
    </Button>
  );
}
