import { BUSINESS_TYPES, createMerchantRequest } from "@common/merchant";
import { ShieldCheck } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { getWalletChallenge, useRegisterMerchant, type WalletChallenge } from "../api/register-merchant";

/** Signs the server's ownership message with the browser wallet; composed in by the app layer. */
export type SignOwnership = (
  getChallenge: (address: string) => Promise<WalletChallenge>,
) => Promise<{ address: string; challenge: WalletChallenge; signature: `0x${string}` }>;

const TYPE_LABELS: Record<(typeof BUSINESS_TYPES)[number], string> = {
  retail: "Retail shop",
  ecommerce: "Online shop",
  services: "Services",
  food: "Food & drink",
  digital: "Digital goods",
  nonprofit: "Non-profit",
  other: "Other",
};

export function BusinessSetupForm({ signOwnership }: { signOwnership: SignOwnership }) {
  const register = useRegisterMerchant();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [problem, setProblem] = React.useState<string>();
  const [signing, setSigning] = React.useState(false);

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(undefined);
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim() || null;
    const fields = {
      name: text("name") ?? "",
      businessType: String(form.get("businessType")),
      contactEmail: text("contactEmail") ?? "",
      website: text("website"),
      description: text("description"),
      logoUrl: text("logoUrl"),
    };
    // Check everything but the proof first, so the wallet is only asked once the form is right.
    const check = createMerchantRequest.safeParse({
      ...fields,
      walletAddress: `0x${"0".repeat(40)}`,
      proof: { nonce: "x".repeat(16), signature: `0x${"0".repeat(130)}` },
    });
    if (!check.success) {
      setErrors(Object.fromEntries(check.error.issues.map((i) => [String(i.path[0]), i.message])));
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
      setProblem((error as Error).message.replace(/^\d{3}: /, ""));
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
        <Field name="name" label="Business name" required error={errors.name} autoComplete="organization" />
        <div className="flex flex-col gap-2">
          <Label htmlFor="businessType">Business type</Label>
          <select
            id="businessType"
            name="businessType"
            className="h-11 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-[3px] focus-visible:ring-ring/60"
            defaultValue="retail"
          >
            {BUSINESS_TYPES.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </div>
        <Field name="contactEmail" type="email" label="Contact email" required error={errors.contactEmail} />
        <Field
          name="website"
          type="url"
          label="Website (optional)"
          placeholder="https://"
          error={errors.website}
        />
        <Field
          name="logoUrl"
          type="url"
          label="Logo URL (optional)"
          placeholder="https://"
          error={errors.logoUrl}
          className="sm:col-span-2"
        />
        <div className="flex flex-col gap-2 sm:col-span-2">
          <Label htmlFor="description">Description (optional)</Label>
          <Textarea id="description" name="description" rows={3} maxLength={1000} />
        </div>
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
