import { createMerchantRequest } from "@common/merchant";
import { ShieldCheck } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { errorText } from "../../error-text";
import { getWalletChallenge, useRegisterMerchant, type WalletChallenge } from "../api/register-merchant";
import { BusinessFields, readBusinessFields } from "./business-fields";

/** Signs the server's ownership message with the browser wallet; composed in by the app layer. */
export type SignOwnership = (
  getChallenge: (address: string) => Promise<WalletChallenge>,
) => Promise<{ address: string; challenge: WalletChallenge; signature: `0x${string}` }>;

/** Validation problems by field (the first of each). */
export function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return errors;
}

export function BusinessSetupForm({ signOwnership }: { signOwnership: SignOwnership }) {
  const register = useRegisterMerchant();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [problem, setProblem] = React.useState<string>();
  const [signing, setSigning] = React.useState(false);

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(undefined);
    // Check everything but the proof first, so the wallet is only asked once the form is right.
    const check = createMerchantRequest.safeParse({
      ...readBusinessFields(event.currentTarget),
      walletAddress: `0x${"0".repeat(40)}`,
      proof: { nonce: "x".repeat(16), signature: `0x${"0".repeat(130)}` },
    });
    if (!check.success) {
      setErrors(fieldErrors(check.error.issues));
      return;
    }
    setErrors({});
    setSigning(true);
    try {
      const proof = await signOwnership(getWalletChallenge);
      await register.mutateAsync({
        ...check.data,
        walletAddress: proof.address,
        proof: { nonce: proof.challenge.nonce, signature: proof.signature },
      });
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setSigning(false);
    }
  };

  return (
    <section className="rounded-xl border border-border bg-card p-4 sm:p-6">
      <h2 className="font-semibold text-xl">Register your business</h2>
      <p className="mt-1 text-muted-foreground text-sm">
        Payments go straight to your own wallet. You prove it is yours by signing a message with it: this
        costs nothing and sends no transaction.
      </p>
      <form onSubmit={submit} noValidate className="mt-4 grid gap-4 sm:grid-cols-2">
        <BusinessFields errors={errors} />
        {problem ? (
          <p role="alert" className="font-medium text-destructive-emphasis text-sm sm:col-span-2">
            {problem}
          </p>
        ) : null}
        <Button type="submit" disabled={signing} className="sm:col-span-2 sm:justify-self-start">
          {signing ? <Spinner size="sm" /> : <ShieldCheck aria-hidden="true" />}
          {signing ? "Waiting for your wallet…" : "Sign with wallet and register"}
        </Button>
      </form>
    </section>
  );
}
