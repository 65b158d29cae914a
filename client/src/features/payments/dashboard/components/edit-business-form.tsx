import { type Merchant, type UpdateMerchantRequest, updateMerchantRequest } from "@common/merchant";
import { Save, Wallet } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/hooks/use-toast";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { errorText } from "../../error-text";
import { shortAddress } from "../../format";
import { getWalletChallenge } from "../api/register-merchant";
import { useUpdateMerchant } from "../api/update-merchant";
import { BusinessFields, readBusinessFields } from "./business-fields";
import { fieldErrors, type SignOwnership } from "./business-setup-form";

/**
 * Edits the business. The receiving address changes only with a new signature from the wallet that will
 * receive: the browser wallet connected at that moment, as at registration.
 */
export function EditBusinessForm({
  merchant,
  signOwnership,
  onDone,
  onCancel = onDone,
  confirmCloseRef,
}: {
  merchant: Merchant;
  signOwnership: SignOwnership;
  /** After saving. */
  onDone: () => void;
  /** "Cancel": the sheet closes through its own guard. */
  onCancel?: () => void;
  /** Filled with this form's "discard your changes?" question, for the sheet to ask before it closes. */
  confirmCloseRef?: React.RefObject<((close: () => void) => void) | null>;
}) {
  const update = useUpdateMerchant();
  const unsaved = useUnsavedChanges({ what: "Edit business" });
  React.useEffect(() => {
    if (!confirmCloseRef) return;
    confirmCloseRef.current = unsaved.confirmDiscard;
    return () => {
      confirmCloseRef.current = null;
    };
  }, [confirmCloseRef, unsaved.confirmDiscard]);
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [problem, setProblem] = React.useState<string>();
  const [changeWallet, setChangeWallet] = React.useState(false);
  const [step, setStep] = React.useState<"signing" | "saving" | null>(null);

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(undefined);
    const check = updateMerchantRequest.safeParse(readBusinessFields(event.currentTarget));
    if (!check.success) {
      setErrors(fieldErrors(check.error.issues));
      return;
    }
    setErrors({});
    try {
      let body: UpdateMerchantRequest = check.data;
      if (changeWallet) {
        setStep("signing");
        const proof = await signOwnership(getWalletChallenge);
        if (proof.address.toLowerCase() === merchant.walletAddress.toLowerCase()) {
          setProblem(
            "Your wallet is connected with the address that already receives your payments. Switch to the new account in your wallet, then save again.",
          );
          return;
        }
        body = {
          ...body,
          walletAddress: proof.address,
          proof: { nonce: proof.challenge.nonce, signature: proof.signature },
        };
      }
      setStep("saving");
      const saved = await update.mutateAsync(body);
      unsaved.markSaved();
      toast({
        title: "Business details saved",
        description:
          saved.walletAddress !== merchant.walletAddress
            ? `New payments go to ${shortAddress(saved.walletAddress)}.`
            : undefined,
      });
      onDone();
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setStep(null);
    }
  };

  return (
    <form
      ref={unsaved.formRef}
      onSubmit={submit}
      noValidate
      className="grid gap-4 sm:grid-cols-2"
      aria-label="Edit business"
    >
      {unsaved.dialog}
      <BusinessFields errors={errors} defaults={merchant} idPrefix="edit-" />
      <fieldset className="flex min-w-0 flex-col gap-2 rounded-lg border border-border p-3 text-sm sm:col-span-2">
        <legend className="px-1 font-medium">Receiving wallet</legend>
        <p>
          Payments go to{" "}
          <span className="break-all font-mono" data-testid="current-wallet">
            {merchant.walletAddress}
          </span>
          .
        </p>
        <label className="flex min-h-11 cursor-pointer items-center gap-3">
          <input
            type="checkbox"
            checked={changeWallet}
            onChange={(event) => setChangeWallet(event.target.checked)}
            className="size-5 accent-primary"
          />
          Receive at the wallet connected in my browser instead
        </label>
        {changeWallet ? (
          <p className="flex gap-2 text-muted-foreground">
            <Wallet aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            When you save, your wallet asks you to sign a message proving the new address is yours (no
            transaction, no fee). Payments already created keep the address they were made with.
          </p>
        ) : null}
      </fieldset>
      {problem ? (
        <p role="alert" className="font-medium text-destructive-emphasis text-sm sm:col-span-2">
          {problem}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <Button type="submit" disabled={step !== null}>
          {step ? <Spinner size="sm" /> : <Save aria-hidden="true" />}
          {step === "signing" ? "Waiting for your wallet…" : step === "saving" ? "Saving…" : "Save changes"}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
