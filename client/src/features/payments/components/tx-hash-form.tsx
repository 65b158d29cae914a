import { SearchCheck } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { useT } from "@/i18n/i18n";
import { submitPaymentTx } from "../api/submit-payment-tx";
import { payErrorText } from "../pay-error-text";

/**
 * "Already paid? Paste the transaction hash": for a payer who paid from an exchange or another device. The server
 * reads the transaction from the chain (POST /api/payments/public/:reference/tx) and credits its transfer to this
 * payment; the page then shows what the chain says. Its refusals (not mined yet, reverted, another token or
 * address, credited elsewhere) are shown as the server words them.
 */
/**
 * The API's own check of a hash. It is zod's, with the contract's schemas, and the payer's page needs nothing else
 * of them: it is loaded when the form is opened (or sent), not with the page (decision 025).
 */
const loadSchema = () => import("@common/payments").then((m) => m.submitTxRequest);

export function TxHashForm({ reference }: { reference: string }) {
  const t = useT();
  const [error, setError] = React.useState<string>();
  const [note, setNote] = React.useState<string>();
  const [busy, setBusy] = React.useState(false);

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const txHash = new FormData(form).get("txHash") ?? "";
    setNote(undefined);
    setBusy(true);
    const schema = await loadSchema().catch((failure: unknown) => {
      setError(payErrorText(failure, "txHash"));
      return null;
    });
    setBusy(false);
    if (!schema) return;
    const parsed = schema.safeParse({ txHash });
    if (!parsed.success) {
      setError(t("pay.txHash.invalid"));
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const payment = await submitPaymentTx(reference, parsed.data.txHash);
      form.reset();
      // A completed payment replaces this form; anything else says what the transaction did.
      if (payment.status === "partial" || payment.status === "pending") setNote(t("pay.txHash.foundCounted"));
      else if (payment.status === "processing") setNote(t("pay.txHash.foundConfirming"));
    } catch (failure) {
      setError(payErrorText(failure, "txHash"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <details
      className="group rounded-md border border-border text-sm"
      data-testid="tx-hash-form"
      onToggle={(event) => {
        if (event.currentTarget.open) void loadSchema().catch(() => {});
      }}
    >
      <summary className="cursor-pointer select-none rounded-md px-3 py-2 font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring">
        {t("pay.txHash.summary")}
      </summary>
      <form onSubmit={submit} noValidate className="flex flex-col gap-3 px-3 pt-1 pb-3">
        <Field
          name="txHash"
          label={t("pay.txHash.label")}
          dir="ltr"
          placeholder="0x…"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          error={error}
          hint={t("pay.txHash.hint")}
        />
        <Button type="submit" variant="outline" className="self-start" disabled={busy}>
          {busy ? <Spinner size="sm" /> : <SearchCheck aria-hidden="true" />}
          {t("pay.txHash.submit")}
        </Button>
        {note ? (
          <p role="status" className="text-muted-foreground">
            {note}
          </p>
        ) : null}
      </form>
    </details>
  );
}
