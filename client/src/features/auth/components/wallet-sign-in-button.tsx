import { Wallet } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useT } from "@/i18n/i18n";
import type { WalletSigner } from "../api/siwe";
import { useAuth } from "../auth-provider";
import { whenSignedIn } from "../when-signed-in";

/**
 * "Sign in with Ethereum" (EIP-4361): the wallet signs a message with a server nonce; the first sign-in of an
 * address creates its account. The signer is handed in by the app layer, which loads the wallet code on click.
 */
export function WalletSignInButton({ signer, onSuccess }: { signer: WalletSigner; onSuccess: () => void }) {
  const { walletLoginMutation } = useAuth();
  const t = useT();
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-3 text-muted-foreground text-sm" aria-hidden="true">
        <span className="h-px flex-1 bg-border" />
        {t("account.wallet.or")}
        <span className="h-px flex-1 bg-border" />
      </div>
      <Button
        type="button"
        variant="outline"
        disabled={walletLoginMutation.isPending}
        onClick={() => whenSignedIn(walletLoginMutation.mutateAsync(signer), onSuccess)}
        data-testid="siwe-sign-in"
      >
        <Wallet aria-hidden="true" />
        {walletLoginMutation.isPending ? t("account.wallet.waiting") : t("account.wallet.signIn")}
      </Button>
      <p className="text-center text-muted-foreground text-xs">{t("account.wallet.note")}</p>
    </div>
  );
}
