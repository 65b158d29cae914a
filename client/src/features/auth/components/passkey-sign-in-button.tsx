import { Fingerprint } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useAuth } from "../auth-provider";

/** Password-less sign-in with a passkey saved on this device or a security key. */
export function PasskeySignInButton({ onSuccess }: { onSuccess: () => void }) {
  const { passkeyMutation } = useAuth();
  return (
    <Button
      type="button"
      variant="outline"
      disabled={passkeyMutation.isPending}
      onClick={() => passkeyMutation.mutate(undefined, { onSuccess })}
    >
      <Fingerprint aria-hidden="true" />
      {passkeyMutation.isPending ? "Waiting for your passkey..." : "Sign in with a passkey"}
    </Button>
  );
}
