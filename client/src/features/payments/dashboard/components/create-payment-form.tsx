import { LOCALE_NAMES, LOCALES } from "@common/locales";
import type { PaymentStatus } from "@common/payment-values";
import { EXPIRY_MINUTES } from "@common/payment-values";
import type { Payment } from "@common/payments";
import { ChevronDown, Download, FileSearch, Plus } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { formatDateTime } from "@/features/payments/format";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { type t as translate, useLocale, useT } from "@/i18n/i18n";
import { isolate, Ltr } from "@/i18n/ltr";
import { usePublicPayment } from "../../api/get-public-payment";
import { CopyButton } from "../../components/copy-button";
import { downloadQr, QrCode } from "../../components/qr-code";
import { useCopyWords } from "../../copy-words";
import { formatTokenAmount, formatUsdAmount } from "../../format";
import { isPayable } from "../../payable";
import { PaymentStatusBadge, STATUS_LABEL_ID } from "../../payment-status";
import { useLivePayment } from "../../use-live-payment";
import { useNow } from "../../use-now";
import { useCreatePayment } from "../api/payments";
import { merchantErrorText } from "../merchant-error-text";
import { useUnsavedWords } from "../unsaved-words";
import { selectClass } from "./business-fields";
import { UsdPreview } from "./usd-preview";

/**
 * The API's own request schema, checked before sending. It is zod's, the largest script the dashboard would
 * otherwise run while it loads: it is asked for when the form is first touched, and is there by the time it is sent
 * (decision 025).
 */
const loadSchema = () => import("@common/payments").then((m) => m.createPaymentRequest);

/** The fields a quick sale rarely needs: folded under "More options" on a phone, always shown from 640 px. */
const MORE_OPTIONS = ["expiresInMinutes", "successUrl", "payerEmail", "payerLanguage"];

/**
 * What a refused field needs, in the reader's words: by the field, not by the schema's English sentence (each field
 * has one rule a person must meet).
 */
function fieldError(field: string, currency: string, t: typeof translate): string {
  switch (field) {
    case "amount":
      return t(
        currency === "USD" ? "merchant.create.invalid.amountUsd" : "merchant.create.invalid.amountCpxtb",
      );
    case "description":
      return t("merchant.create.invalid.tooLong", { max: 500 });
    case "orderId":
      return t("merchant.create.invalid.tooLong", { max: 100 });
    case "expiresInMinutes":
      return t("merchant.create.invalid.expiry", { min: EXPIRY_MINUTES.min, max: EXPIRY_MINUTES.max });
    case "successUrl":
      return t("merchant.create.invalid.successUrl");
    case "payerEmail":
      return t("merchant.create.invalid.payerEmail");
    default:
      return t("merchant.create.invalid.other");
  }
}

export function CreatePaymentForm({ onOpen }: { onOpen: (id: string) => void }) {
  const create = useCreatePayment();
  const t = useT();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [created, setCreated] = React.useState<Payment | null>(null);
  const [checking, setChecking] = React.useState(false);
  const [draft, setDraft] = React.useState({ amount: "", currency: "USD" });
  const [moreOpen, setMoreOpen] = React.useState(false);
  const formRef = React.useRef<HTMLFormElement>(null);
  const readDraft = (form: HTMLFormElement) => {
    const data = new FormData(form);
    setDraft({ amount: String(data.get("amount") ?? ""), currency: String(data.get("currency") ?? "USD") });
  };
  const unsaved = useUnsavedChanges(useUnsavedWords(t("merchant.create.title")));
  const setFormRef = unsaved.formRef;
  const formRefs = React.useCallback(
    (form: HTMLFormElement | null) => {
      formRef.current = form;
      setFormRef(form);
    },
    [setFormRef],
  );

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (checking || create.isPending) return;
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim() || null;
    const values = {
      currency: String(form.get("currency")),
      amount: text("amount") ?? "",
      description: text("description"),
      orderId: text("orderId"),
      expiresInMinutes: Number(form.get("expiresInMinutes") || EXPIRY_MINUTES.default),
      successUrl: text("successUrl"),
      payerEmail: text("payerEmail"),
      payerLanguage: text("payerLanguage"),
    };
    setChecking(true);
    const schema = await loadSchema()
      .catch((error: unknown) => {
        setErrors({ form: merchantErrorText(error) });
        return null;
      })
      .finally(() => setChecking(false));
    if (!schema) return;
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      const found: Record<string, string> = Object.fromEntries(
        parsed.error.issues.map((i) => [
          String(i.path[0]),
          fieldError(String(i.path[0]), values.currency, t),
        ]),
      );
      setErrors(found);
      // A problem in a folded field is shown, not hidden under "More options".
      if (MORE_OPTIONS.some((name) => found[name])) setMoreOpen(true);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (payment) => {
        setCreated(payment);
        // The next sale starts from an empty form: an order id left over would tag the next payment wrongly.
        formRef.current?.reset();
        setDraft({ amount: "", currency: "USD" });
        setMoreOpen(false);
        // The emptied form is the new starting point: leaving it loses nothing.
        unsaved.markSaved();
      },
    });
  };

  return (
    <section className="rounded-xl border border-border bg-card p-4 sm:p-6">
      <h2 className="font-semibold text-xl">{t("merchant.create.title")}</h2>
      {unsaved.dialog}
      <form
        ref={formRefs}
        onSubmit={submit}
        onInput={(event) => readDraft(event.currentTarget)}
        onChange={(event) => readDraft(event.currentTarget)}
        onFocus={() => void loadSchema().catch(() => {})}
        noValidate
        className="mt-4 grid gap-4 sm:grid-cols-2"
      >
        <div className="flex gap-2">
          <Field
            name="amount"
            label={t("merchant.create.amount")}
            inputMode="decimal"
            required
            error={errors.amount}
            className="flex-1"
          />
          <div className="flex flex-col gap-2">
            <Label htmlFor="currency">{t("merchant.create.currency")}</Label>
            <select
              id="currency"
              name="currency"
              className="h-11 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-[3px] focus-visible:ring-ring/60"
            >
              <option value="USD">USD</option>
              <option value="CPXTB">CPXTB</option>
            </select>
          </div>
        </div>
        {draft.currency === "USD" ? (
          <div className="sm:col-span-2">
            <UsdPreview amount={draft.amount} />
          </div>
        ) : null}
        <p className="text-muted-foreground text-sm sm:col-span-2" id="amount-tag-hint">
          {t("merchant.create.tagHint")}
        </p>
        <Field
          name="description"
          label={t("merchant.create.description")}
          maxLength={500}
          error={errors.description}
        />
        <Field name="orderId" label={t("merchant.create.orderId")} maxLength={100} error={errors.orderId} />
        <Button
          type="button"
          variant="ghost"
          className="justify-self-start sm:hidden"
          aria-expanded={moreOpen}
          aria-controls="create-payment-more"
          onClick={() => setMoreOpen((open) => !open)}
        >
          <ChevronDown
            aria-hidden="true"
            className={moreOpen ? "rotate-180 transition-transform" : "transition-transform"}
          />
          {t("merchant.create.moreOptions")}
        </Button>
        {/* Folded fields are only hidden: their values (and defaults) are still sent. */}
        <div
          id="create-payment-more"
          className={
            moreOpen
              ? "grid gap-4 sm:col-span-2 sm:grid-cols-2"
              : "hidden gap-4 sm:col-span-2 sm:grid sm:grid-cols-2"
          }
        >
          <Field
            name="expiresInMinutes"
            type="number"
            label={t("merchant.create.expiresAfter")}
            min={EXPIRY_MINUTES.min}
            max={EXPIRY_MINUTES.max}
            defaultValue={EXPIRY_MINUTES.default}
            error={errors.expiresInMinutes}
          />
          <Field
            name="successUrl"
            type="url"
            dir="ltr"
            label={t("merchant.create.successUrl")}
            error={errors.successUrl}
          />
          <Field
            name="payerEmail"
            type="email"
            dir="ltr"
            label={t("merchant.create.payerEmail")}
            error={errors.payerEmail}
          />
          <div className="flex flex-col gap-2">
            <Label htmlFor="create-payerLanguage">{t("merchant.create.payerLanguage")}</Label>
            <select
              id="create-payerLanguage"
              name="payerLanguage"
              className={selectClass}
              defaultValue=""
              aria-describedby="create-payerLanguage-hint"
            >
              <option value="">{t("merchant.create.payerLanguageUnknown")}</option>
              {LOCALES.map((locale) => (
                <option key={locale} value={locale} lang={locale}>
                  {LOCALE_NAMES[locale]}
                </option>
              ))}
            </select>
            <p id="create-payerLanguage-hint" className="text-muted-foreground text-sm">
              {t("merchant.create.payerLanguageHint")}
            </p>
          </div>
        </div>
        {create.isError || errors.form ? (
          <p role="alert" className="font-medium text-destructive-emphasis text-sm sm:col-span-2">
            {t("merchant.create.notCreated", { error: errors.form ?? merchantErrorText(create.error) })}
          </p>
        ) : null}
        <Button type="submit" disabled={checking || create.isPending} className="sm:justify-self-start">
          {checking || create.isPending ? (
            <Spinner size="sm" label={t("merchant.busy.creating")} />
          ) : (
            <Plus aria-hidden="true" />
          )}{" "}
          {t("merchant.create.submit")}
        </Button>
      </form>
      {created ? <NewPayment payment={created} onOpen={onOpen} /> : null}
    </section>
  );
}

/** What the card says of a payment that can no longer be paid, by its status. */
const CLOSED_MESSAGE_ID = {
  completed: "merchant.created.closed.completed",
  paid_late: "merchant.created.closed.paidLate",
  processing: "merchant.created.closed.processing",
  expired: "merchant.created.closed.expired",
  cancelled: "merchant.created.closed.cancelled",
  invalid: "merchant.created.closed.invalid",
} as const satisfies Record<Exclude<PaymentStatus, "pending" | "partial">, string>;

/**
 * The payment just created, with its live status (the pay page's live hook): its QR code and link are offered only
 * while it can be paid. Once paid, confirming, expired or cancelled, the card says so instead, so the next
 * customer's wallet never pays it again (issue 35).
 */
function NewPayment({ payment, onOpen }: { payment: Payment; onOpen: (id: string) => void }) {
  // Focus moves to what "Create payment" made, so a keyboard or screen-reader user lands on it.
  const region = React.useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new payment takes the focus once
  React.useEffect(() => region.current?.focus(), [payment.id]);
  useLivePayment(payment.reference);
  const live = usePublicPayment(payment.reference).data;
  const now = useNow();
  const current = { status: live?.status ?? payment.status, expiresAt: payment.expiresAt };
  const payable = isPayable(current, now);
  const t = useT();
  const locale = useLocale();
  const copyWords = useCopyWords();
  const amount = `${formatTokenAmount(payment.amountDue, locale)} CPXTB`;
  const shownStatus = payable || current.status !== "pending" ? current.status : "expired";
  // Not payable any more: pending or partly paid means its time ran out.
  const closed = current.status === "pending" || current.status === "partial" ? "expired" : current.status;
  return (
    <section
      ref={region}
      tabIndex={-1}
      aria-label={t("merchant.created.label", { amount: isolate(amount, locale) })}
      className="mt-6 flex flex-col gap-4 rounded-md border-border border-t pt-6 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60 sm:flex-row sm:items-start"
      data-testid="new-payment"
      data-payable={payable}
    >
      {payable ? (
        <QrCode
          value={live?.paymentUri ?? payment.paymentUri}
          label={t("merchant.created.qrLabel")}
          className="w-40 shrink-0"
        />
      ) : null}
      <div className="flex min-w-0 flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-bold text-2xl tabular-nums">
            <Ltr>{amount}</Ltr>
          </p>
          <PaymentStatusBadge
            status={shownStatus}
            label={t(STATUS_LABEL_ID[shownStatus])}
            data-testid="new-payment-status"
          />
        </div>
        {payable ? null : (
          <p className="font-medium" role="status">
            {t(CLOSED_MESSAGE_ID[closed])} {t("merchant.created.qrHidden")}
          </p>
        )}
        {payment.amountUsd && payment.price ? (
          <p className="text-muted-foreground text-sm tabular-nums">
            {t("merchant.created.usdAtRate", {
              usd: isolate(formatUsdAmount(payment.amountUsd, locale), locale),
              rate: isolate(`${formatTokenAmount(payment.price.usdPerToken, locale, 18)} USD/CPXTB`, locale),
              time: isolate(formatDateTime(payment.price.at, locale), locale),
            })}
          </p>
        ) : null}
        {payable ? (
          <a
            href={payment.paymentUrl}
            dir="ltr"
            className="break-all text-start font-mono text-primary text-sm underline-offset-4 hover:underline"
          >
            {payment.paymentUrl}
          </a>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {payable ? (
            <>
              <CopyButton
                value={payment.paymentUrl}
                label={t("merchant.common.paymentLink")}
                words={copyWords}
              />
              <Button
                variant="outline"
                size="sm"
                onClick={() =>
                  downloadQr(payment.paymentUri, `cpxtb-payment-${payment.reference.slice(0, 8)}.png`)
                }
              >
                <Download aria-hidden="true" /> {t("merchant.created.downloadQr")}
              </Button>
            </>
          ) : null}
          <Button variant="outline" size="sm" onClick={() => onOpen(payment.id)}>
            <FileSearch aria-hidden="true" />{" "}
            {t(payable ? "merchant.created.detailsPoster" : "merchant.created.details")}
          </Button>
        </div>
      </div>
    </section>
  );
}
