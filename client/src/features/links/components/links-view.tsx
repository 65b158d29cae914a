import { createLinkRequest, type Link, MAX_LINK_IMAGE_BYTES } from "@common/links";
import { ImagePlus, Link2, Pencil, Plus, Power, PowerOff } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { developersErrorText, schemaText } from "@/features/developers/developers-error-text";
import { CopyButton } from "@/features/payments/components/copy-button";
import { useCopyWords } from "@/features/payments/copy-words";
import { formatTokenAmount, formatUsd } from "@/features/payments/format";
import { payToastWords } from "@/features/payments/toast-words";
import { toast } from "@/hooks/use-toast";
import { currentLocale, Rich, t, useLocale, useT } from "@/i18n/i18n";
import { Ltr } from "@/i18n/ltr";
import { cn } from "@/lib/utils";
import { useCreateLink, useLinks, useUpdateLink } from "../api/links";
import { formatLinkAmount } from "./link-view";

const selectClass =
  "h-11 w-full min-w-0 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-[3px] focus-visible:ring-ring/60";

type FormErrors = Record<string, string>;

/** The form's values as the API takes them: empty optional fields as null (or left out when creating). */
function readLinkForm(form: HTMLFormElement, image: string | null) {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? "").trim();
  const pricing = text("pricing") === "open" ? "open" : "fixed";
  const limit = text("quantityLimit");
  return {
    title: text("title"),
    description: text("description") || null,
    imageUrl: image,
    pricing,
    currency: text("currency") === "CPXTB" ? "CPXTB" : "USD",
    amount: pricing === "fixed" ? text("amount") : null,
    minAmount: pricing === "open" ? text("minAmount") : null,
    quantityLimit: limit === "" ? null : Number(limit),
    slug: text("slug") || undefined,
  } as const;
}

/** A refusal the form can say beside its fields (a field's check, a taken address), rather than in a toast. */
function isFormRefusal(error: unknown): boolean {
  const code = (error as { body?: { error?: { code?: unknown } } }).body?.error?.code;
  return code === "VALIDATION_ERROR" || code === "CONFLICT";
}

/** A toast in the reader's language (its text, and the toaster's own labels). */
function say(props: { title: string; description?: string; variant?: "destructive" }) {
  toast({ ...props, ...payToastWords(t, currentLocale()) });
}

/** The image: an https URL typed in, or a small file read into a data URL (as the business's logo is). */
function ImageField({
  value,
  onChange,
  error,
}: {
  value: string | null;
  onChange: (v: string | null) => void;
  error?: string | undefined;
}) {
  const [fileError, setFileError] = React.useState<string | null>(null);
  const t = useT();
  const isData = value?.startsWith("data:") ?? false;
  const pick = (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!/^image\/(png|jpeg|webp|gif)$/.test(file.type)) {
      setFileError(t("developers.linkForm.imageType"));
      return;
    }
    if (file.size > MAX_LINK_IMAGE_BYTES) {
      setFileError(t("developers.linkForm.imageTooBig", { size: Math.ceil(file.size / 1024) }));
      return;
    }
    setFileError(null);
    const reader = new FileReader();
    reader.onload = () => onChange(String(reader.result));
    reader.readAsDataURL(file);
  };
  return (
    <div className="flex flex-col gap-2 sm:col-span-2">
      <div className="flex items-end gap-2">
        <Field
          id="link-imageUrl"
          label={t("developers.linkForm.image")}
          type="url"
          dir="ltr"
          placeholder="https://"
          className="flex-1"
          value={isData ? "" : (value ?? "")}
          onChange={(event) => onChange(event.target.value.trim() || null)}
          disabled={isData}
          error={error}
        />
        <Button type="button" variant="outline" className="h-11" asChild>
          <label htmlFor="link-image-file" className="cursor-pointer">
            <ImagePlus aria-hidden="true" /> {t("developers.linkForm.upload")}
          </label>
        </Button>
        <input
          id="link-image-file"
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          className="sr-only"
          onChange={pick}
          data-testid="link-image-file"
        />
      </div>
      {value ? (
        <div className="flex items-center gap-3">
          <img src={value} alt="" className="size-14 rounded-md border border-border object-cover" />
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange(null)}>
            {t("developers.linkForm.removeImage")}
          </Button>
        </div>
      ) : null}
      {fileError ? (
        <p role="alert" className="font-medium text-destructive text-sm">
          {fileError}
        </p>
      ) : null}
    </div>
  );
}

/** Create or edit a link: the same fields, checked with the API's own schema before sending. */
function LinkForm({ link, onDone }: { link?: Link; onDone: () => void }) {
  const create = useCreateLink();
  const update = useUpdateLink();
  const [errors, setErrors] = React.useState<FormErrors>({});
  const [pricing, setPricing] = React.useState<"fixed" | "open">(link?.pricing ?? "fixed");
  const [image, setImage] = React.useState<string | null>(link?.imageUrl ?? null);
  const pending = create.isPending || update.isPending;
  const t = useT();
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = readLinkForm(event.currentTarget, image);
    const parsed = createLinkRequest.safeParse(values);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(
          parsed.error.issues.map((i) => [String(i.path[0] ?? "title"), schemaText(i.message)]),
        ),
      );
      return;
    }
    setErrors({});
    const onError = (error: unknown) => {
      if (isFormRefusal(error)) setErrors({ form: developersErrorText(error) });
      else
        say({
          variant: "destructive",
          title: t("developers.linkForm.notSaved"),
          description: developersErrorText(error),
        });
    };
    if (link) {
      update.mutate(
        { id: link.id, ...parsed.data, slug: parsed.data.slug ?? link.slug },
        {
          onSuccess: () => {
            say({ title: t("developers.linkForm.saved") });
            onDone();
          },
          onError,
        },
      );
    } else {
      create.mutate(parsed.data, {
        onSuccess: (created) => {
          say({ title: t("developers.linkForm.created"), description: created.url });
          onDone();
        },
        onError,
      });
    }
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid grid-cols-1 gap-4 sm:grid-cols-2"
      data-testid="link-form"
    >
      <Field
        id="link-title"
        name="title"
        label={t("developers.linkForm.title")}
        required
        maxLength={120}
        defaultValue={link?.title ?? ""}
        error={errors.title}
        className="sm:col-span-2"
      />
      <div className="flex flex-col gap-2 sm:col-span-2">
        <Label htmlFor="link-description">{t("developers.linkForm.description")}</Label>
        <Textarea
          id="link-description"
          name="description"
          rows={2}
          maxLength={1000}
          defaultValue={link?.description ?? ""}
        />
      </div>
      <ImageField value={image} onChange={setImage} error={errors.imageUrl} />
      <fieldset className="flex flex-col gap-2 sm:col-span-2">
        <legend className="mb-1 font-medium text-sm">{t("developers.linkForm.price")}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-1">
          {(
            [
              ["fixed", "developers.linkForm.fixed"],
              ["open", "developers.linkForm.open"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
              <input
                type="radio"
                name="pricing"
                value={value}
                checked={pricing === value}
                onChange={() => setPricing(value)}
                className="size-5 accent-[var(--primary)]"
              />
              {t(label)}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-col gap-2">
        <Label htmlFor="link-currency">{t("developers.linkForm.currency")}</Label>
        <select
          id="link-currency"
          name="currency"
          defaultValue={link?.currency ?? "USD"}
          className={selectClass}
        >
          <option value="USD">{t("developers.linkForm.usd")}</option>
          <option value="CPXTB">CPXTB</option>
        </select>
      </div>
      {pricing === "fixed" ? (
        <Field
          key="amount"
          id="link-amount"
          name="amount"
          label={t("developers.linkForm.price")}
          inputMode="decimal"
          dir="ltr"
          placeholder="4.50"
          defaultValue={link?.amount ?? ""}
          error={errors.amount}
        />
      ) : (
        <Field
          key="minAmount"
          id="link-minAmount"
          name="minAmount"
          label={t("developers.linkForm.minAmount")}
          inputMode="decimal"
          dir="ltr"
          placeholder="1.00"
          defaultValue={link?.minAmount ?? ""}
          error={errors.minAmount}
        />
      )}
      <Field
        id="link-quantityLimit"
        name="quantityLimit"
        label={t("developers.linkForm.quantity")}
        inputMode="numeric"
        placeholder={t("developers.linkForm.noLimit")}
        defaultValue={link?.quantityLimit ?? ""}
        error={errors.quantityLimit}
        hint={t("developers.linkForm.quantityHint")}
      />
      <Field
        id="link-slug"
        name="slug"
        label={t("developers.linkForm.slug")}
        placeholder={t("developers.linkForm.slugPlaceholder")}
        defaultValue={link?.slug ?? ""}
        error={errors.slug}
        hint={t("developers.linkForm.slugHint", { prefix: "/l/" })}
        spellCheck={false}
        autoComplete="off"
      />
      {errors.form ? (
        <p role="alert" className="font-medium text-destructive text-sm sm:col-span-2">
          {errors.form}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <Button type="submit" disabled={pending}>
          {pending ? (
            <Spinner size="sm" label={t(link ? "developers.busy.saving" : "developers.busy.creating")} />
          ) : null}
          {link ? t("developers.linkForm.save") : t("developers.linkForm.create")}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          {t("developers.common.cancel")}
        </Button>
      </div>
    </form>
  );
}

function LinkStats({ link }: { link: Link }) {
  const t = useT();
  const locale = useLocale();
  const s = link.stats;
  const sum =
    link.currency === "USD" && s.paidUsd !== null
      ? `${formatUsd(s.paidUsd, locale)} (${formatTokenAmount(s.paidTotal, locale)} CPXTB)`
      : `${formatTokenAmount(s.paidTotal, locale)} CPXTB`;
  return (
    <dl className="grid grid-cols-3 gap-2 text-sm" data-testid="link-stats">
      <div>
        <dt className="text-muted-foreground text-xs">{t("developers.links.payments")}</dt>
        <dd className="font-semibold tabular-nums" data-testid="link-stat-requests">
          {s.requests}
        </dd>
      </div>
      <div>
        <dt className="text-muted-foreground text-xs">{t("developers.links.paid")}</dt>
        <dd className="font-semibold tabular-nums" data-testid="link-stat-paid">
          {s.paid}
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="text-muted-foreground text-xs">{t("developers.links.received")}</dt>
        <dd className="break-words font-semibold tabular-nums" data-testid="link-stat-sum">
          <Ltr>{sum}</Ltr>
        </dd>
      </div>
    </dl>
  );
}

function LinkCard({ link, canEdit }: { link: Link; canEdit: boolean }) {
  const [editing, setEditing] = React.useState(false);
  const update = useUpdateLink();
  const t = useT();
  const locale = useLocale();
  const copyWords = useCopyWords();
  const toggle = () =>
    update.mutate(
      { id: link.id, active: !link.active },
      {
        onSuccess: (saved) =>
          say({ title: t(saved.active ? "developers.links.switchedOn" : "developers.links.switchedOff") }),
        onError: (error) =>
          say({
            variant: "destructive",
            title: t("developers.links.notChanged"),
            description: developersErrorText(error),
          }),
      },
    );
  const price =
    link.pricing === "fixed" ? (
      <Ltr>{formatLinkAmount(link.amount ?? "0", link.currency, locale)}</Ltr>
    ) : (
      <Rich
        id="developers.links.payerChooses"
        values={{ amount: <Ltr>{formatLinkAmount(link.minAmount ?? "0", link.currency, locale)}</Ltr> }}
      />
    );
  return (
    <li
      className={cn(
        "flex flex-col gap-3 rounded-xl border border-border bg-card p-4 text-card-foreground",
        !link.active && "opacity-80",
      )}
      data-testid="link-card"
      data-slug={link.slug}
    >
      {editing ? (
        <LinkForm link={link} onDone={() => setEditing(false)} />
      ) : (
        <>
          <div className="flex items-start gap-3">
            {link.imageUrl ? (
              <img
                src={link.imageUrl}
                alt=""
                className="size-14 shrink-0 rounded-md border border-border object-cover"
              />
            ) : (
              <span className="inline-flex size-14 shrink-0 items-center justify-center rounded-md bg-muted">
                <Link2 aria-hidden="true" className="size-6 text-muted-foreground" />
              </span>
            )}
            <div className="min-w-0 flex-1">
              <h3 className="break-words font-semibold text-lg leading-tight">{link.title}</h3>
              <p className="text-sm tabular-nums">{price}</p>
              <p className="flex flex-wrap gap-1 pt-1 text-xs">
                <span
                  className={cn(
                    "rounded-full px-2 py-0.5 font-medium",
                    link.active ? "bg-success text-success-foreground" : "bg-muted text-muted-foreground",
                  )}
                  data-testid="link-state"
                >
                  {t(link.active ? "developers.links.on" : "developers.links.off")}
                </span>
                {link.stats.remaining !== null ? (
                  <span className="rounded-full bg-muted px-2 py-0.5 text-muted-foreground">
                    {link.stats.remaining === 0
                      ? t("developers.links.soldOut")
                      : t("developers.links.left", { count: link.stats.remaining })}
                  </span>
                ) : null}
              </p>
            </div>
          </div>
          <div className="flex min-w-0 items-center gap-2">
            <a
              href={link.url}
              target="_blank"
              rel="noreferrer"
              dir="ltr"
              className="min-w-0 flex-1 truncate text-start font-mono text-primary text-sm underline-offset-4 hover:underline"
              data-testid="link-url"
            >
              {link.url}
            </a>
            <CopyButton
              value={link.url}
              label={t("developers.links.copyLabel")}
              copiedText={t("developers.links.copiedText")}
              words={copyWords}
            />
          </div>
          <LinkStats link={link} />
          {canEdit ? (
            <div className="flex flex-wrap gap-2">
              <Button type="button" variant="outline" size="sm" onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" /> {t("developers.links.edit")}
              </Button>
              <Button type="button" variant="outline" size="sm" onClick={toggle} disabled={update.isPending}>
                {link.active ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
                {t(link.active ? "developers.links.switchOff" : "developers.links.switchOn")}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </li>
  );
}

export function LinksView({ canEdit }: { canEdit: boolean }) {
  const links = useLinks();
  const [adding, setAdding] = React.useState(false);
  const t = useT();
  return (
    <div className="flex flex-col gap-4">
      {canEdit ? (
        adding ? (
          <section className="rounded-xl border border-border bg-card p-4 sm:p-6">
            <h2 className="mb-4 font-semibold text-xl">{t("developers.links.newTitle")}</h2>
            <LinkForm onDone={() => setAdding(false)} />
          </section>
        ) : (
          <Button type="button" className="self-start" onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" /> {t("developers.links.newLink")}
          </Button>
        )
      ) : null}
      {links.isPending ? (
        <Spinner size="lg" label={t("developers.links.loading")} />
      ) : links.isError ? (
        <p role="alert" className="text-destructive-emphasis">
          {t("developers.links.loadFailed", { reason: developersErrorText(links.error) })}
        </p>
      ) : links.data.items.length === 0 ? (
        <p className="rounded-xl border border-border border-dashed p-6 text-center text-muted-foreground">
          {t("developers.links.empty")}
        </p>
      ) : (
        <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2" data-testid="links-list">
          {links.data.items.map((link) => (
            <LinkCard key={link.id} link={link} canEdit={canEdit} />
          ))}
        </ul>
      )}
    </div>
  );
}
