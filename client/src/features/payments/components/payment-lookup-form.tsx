import { PAYMENT_REFERENCE_PATTERN } from "@common/payment-values";
import { Search } from "lucide-react";
import * as React from "react";
import { useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useT } from "@/i18n/i18n";

/**
 * Accepts a bare reference or a whole payment link and opens its status page (or the page `to` names). With
 * `action`, the form is also a plain GET form to that page with the reference as `param`: submitted before the
 * app has hydrated the server's HTML, the browser itself then opens the page the app would.
 */
export function PaymentLookupForm({
  to = (reference) => `/payment/${reference}`,
  submitLabel,
  action,
  param = "reference",
}: {
  to?: (reference: string) => string;
  submitLabel?: string;
  action?: string;
  param?: string;
} = {}) {
  const t = useT();
  const [, navigate] = useLocation();
  const [error, setError] = React.useState<string>();
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const raw = String(new FormData(event.currentTarget).get(param) ?? "").trim();
    const reference = raw.split(/[/?#]/).filter(Boolean).at(-1) ?? "";
    if (!PAYMENT_REFERENCE_PATTERN.test(reference)) {
      setError(t("pay.lookup.invalid"));
      return;
    }
    setError(undefined);
    navigate(to(reference));
  };
  return (
    <form
      onSubmit={submit}
      action={action}
      method="get"
      noValidate
      className="flex flex-col gap-4 rounded-xl border border-border bg-card p-4"
    >
      <Field
        name={param}
        label={t("pay.lookup.label")}
        dir="ltr"
        autoComplete="off"
        spellCheck={false}
        error={error}
        hint={t("pay.lookup.hint")}
      />
      <Button type="submit" className="self-start">
        <Search aria-hidden="true" /> {submitLabel ?? t("pay.lookup.submit")}
      </Button>
    </form>
  );
}
