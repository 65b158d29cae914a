import { type Merchant, type UpdateMerchantRequest, updateMerchantRequest } from "@common/merchant";
import { Save, Wallet } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/hooks/use-toast";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { Rich, useLocale, useT } from "@/i18n/i18n";
import { isolate, Ltr } from "@/i18n/ltr";
import { shortAddress } from "../../format";
import { payToastWords } from "../../toast-words";
import { getWalletChallenge } from "../api/register-merchant";
import { useUpdateMerchant } from "../api/update-merchant";
import { merchantErrorText } from "../merchant-error-text";
import { useUnsavedWords } from "../unsaved-words";
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
  const t = useT();
  const locale = useLocale();
  const unsaved = useUnsavedChanges(useUnsavedWords(t("merchant.edit.title")));
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
      setErrors(fieldErrors(check.error.issues, t));
      return;
    }
    setErrors({});
    try {
      let body: UpdateMerchantRequest = check.data;
      if (changeWallet) {
        setStep("signing");
        const proof = await signOwnership(getWalletChallenge);
        if (proof.address.toLowerCase() === merchant.walletAddress.toLowerCase()) {
          setProblem(t("merchant.edit.sameWallet"));
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
        title: t("merchant.edit.saved"),
        description:
          saved.walletAddress !== merchant.walletAddress
            ? t("merchant.edit.savedWallet", { address: isolate(shortAddress(saved.walletAddress), locale) })
            : undefined,
        ...payToastWords(t, locale),
      });
      onDone();
    } catch (error) {
      setProblem(merchantErrorText(error));
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
      aria-label={t("merchant.edit.title")}
    >
      {unsaved.dialog}
      <BusinessFields errors={errors} defaults={merchant} idPrefix="edit-" />
      <fieldset className="flex min-w-0 flex-col gap-2 rounded-lg border border-border p-3 text-sm sm:col-span-2">
        <legend className="px-1 font-medium">{t("merchant.common.receivingWallet")}</legend>
        <p>
          <Rich
            id="merchant.edit.paymentsGoTo"
            values={{
              address: (
                <Ltr>
                  <span className="break-all font-mono" data-testid="current-wallet">
                    {merchant.walletAddress}
                  </span>
                </Ltr>
              ),
            }}
          />
        </p>
        <label className="flex min-h-11 cursor-pointer items-center gap-3">
          <input
            type="checkbox"
            checked={changeWallet}
            onChange={(event) => setChangeWallet(event.target.checked)}
            className="size-5 accent-primary"
          />
          {t("merchant.edit.changeWallet")}
        </label>
        {changeWallet ? (
          <p className="flex gap-2 text-muted-foreground">
            <Wallet aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {t("merchant.edit.changeWalletHint")}
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
          {step ? (
            <Spinner
              size="sm"
              label={t(step === "signing" ? "merchant.common.waitingForWallet" : "merchant.edit.saving")}
            />
          ) : (
            <Save aria-hidden="true" />
          )}
          {t(
            step === "signing"
              ? "merchant.common.waitingForWallet"
              : step === "saving"
                ? "merchant.edit.saving"
                : "merchant.edit.save",
          )}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          {t("merchant.edit.cancel")}
        </Button>
      </div>
    </form>
  );
}
