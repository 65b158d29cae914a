import { createMerchantRequest } from "@common/merchant";
import { ShieldCheck } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { type t as translate, useT } from "@/i18n/i18n";
import { getWalletChallenge, useRegisterMerchant, type WalletChallenge } from "../api/register-merchant";
import { merchantErrorText } from "../merchant-error-text";
import { BusinessFields, readBusinessFields } from "./business-fields";

/** Signs the server's ownership message with the browser wallet; composed in by the app layer. */
export type SignOwnership = (
  getChallenge: (address: string) => Promise<WalletChallenge>,
) => Promise<{ address: string; challenge: WalletChallenge; signature: `0x${string}` }>;

/** What each field of the business needs, in the reader's words (by the field: each has one rule to meet). */
const FIELD_ERROR_ID: Record<string, string> = {
  name: "merchant.business.invalid.name",
  contactEmail: "merchant.business.invalid.contactEmail",
  website: "merchant.business.invalid.website",
  logoUrl: "merchant.business.invalid.logoUrl",
  brandColor: "merchant.business.invalid.brandColor",
  tipPresets: "merchant.business.invalid.tipPresets",
  description: "merchant.business.invalid.description",
};

/**
 * Validation problems by field (the first of each), in the reader's language when `t` is given; the schema's own
 * English sentence otherwise.
 */
export function fieldErrors(
  issues: { path: PropertyKey[]; message: string }[],
  t?: typeof translate,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "form");
    const id = FIELD_ERROR_ID[field];
    errors[field] ??= t ? t(id ?? "merchant.business.invalid.other") : issue.message;
  }
  return errors;
}

export function BusinessSetupForm({ signOwnership }: { signOwnership: SignOwnership }) {
  const register = useRegisterMerchant();
  const t = useT();
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
      setErrors(fieldErrors(check.error.issues, t));
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
      setProblem(merchantErrorText(error));
    } finally {
      setSigning(false);
    }
  };

  return (
    <section className="rounded-xl border border-border bg-card p-4 sm:p-6">
      <h2 className="font-semibold text-xl">{t("merchant.setup.title")}</h2>
      <p className="mt-1 text-muted-foreground text-sm">{t("merchant.setup.intro")}</p>
      <form onSubmit={submit} noValidate className="mt-4 grid gap-4 sm:grid-cols-2">
        <BusinessFields errors={errors} />
        {problem ? (
          <p role="alert" className="font-medium text-destructive-emphasis text-sm sm:col-span-2">
            {problem}
          </p>
        ) : null}
        <Button type="submit" disabled={signing} className="sm:col-span-2 sm:justify-self-start">
          {signing ? (
            <Spinner size="sm" label={t("merchant.common.waitingForWallet")} />
          ) : (
            <ShieldCheck aria-hidden="true" />
          )}
          {t(signing ? "merchant.common.waitingForWallet" : "merchant.setup.submit")}
        </Button>
      </form>
    </section>
  );
}
