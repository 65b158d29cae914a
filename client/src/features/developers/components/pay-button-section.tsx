import { MousePointerClick } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { CopyButton } from "@/features/payments/components/copy-button";
import { useCopyWords } from "@/features/payments/copy-words";
import { Rich, useT } from "@/i18n/i18n";
import { useEmbedSettings, useNewestOpenPayment, useSaveEmbedOrigins } from "../api/embed-settings";
import { developersErrorText } from "../developers-error-text";

/** What a button sells: one payment request, or a payment link (each click a request of its own). */
export type ButtonTarget = { payment: string } | { link: string };
/** A payment link the business can put on its website (the app layer passes them in). */
export type EmbeddableLink = { slug: string; title: string; active: boolean };

/** The snippet a merchant pastes into its website for one payment or one link (decision 035). */
export function paySnippet(origin: string, target: ButtonTarget): string {
  const element =
    "link" in target
      ? `<a data-cpxtb-link="${target.link}">Pay with CPXTB</a>`
      : `<button data-cpxtb-payment="${target.payment}">Pay with CPXTB</button>`;
  return `<script src="${origin}/embed.js" async></script>
${element}
<script>
  document.addEventListener("cpxtb:result", (event) => {
    // event.detail.result: "paid", "expired" or "closed"
    if (event.detail.result === "paid") location.href = "/thank-you";
  });
</script>`;
}

/** A code or address in a sentence: as written, left to right in every language. */
function Code({ children }: { children: string }) {
  return (
    <code dir="ltr" className="font-mono">
      {children}
    </code>
  );
}

function AllowedOrigins() {
  const settings = useEmbedSettings();
  const save = useSaveEmbedOrigins();
  const t = useT();
  const [text, setText] = React.useState<string | null>(null);
  const value = text ?? settings.data?.origins.join("\n") ?? "";
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const origins = value
      .split(/[\s,]+/)
      .map((o) => o.trim())
      .filter(Boolean);
    save.mutate(origins, { onSuccess: () => setText(null) });
  };
  if (settings.isPending) return <Spinner label={t("developers.embed.loading")} />;
  if (settings.isError) {
    return (
      <p role="alert" className="text-destructive-emphasis text-sm">
        {t("developers.embed.loadFailed", { reason: developersErrorText(settings.error) })}
      </p>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <label htmlFor="embed-origins" className="font-medium text-sm">
          {t("developers.embed.label")}
        </label>
        <Textarea
          id="embed-origins"
          name="origins"
          rows={3}
          value={value}
          onChange={(event) => setText(event.target.value)}
          placeholder="https://shop.example"
          aria-describedby="embed-origins-hint"
          aria-invalid={save.isError || undefined}
          className="font-mono"
          dir="ltr"
          spellCheck={false}
        />
        <p id="embed-origins-hint" className="text-muted-foreground text-sm">
          <Rich id="developers.embed.hint" values={{ example: <Code>https://shop.example</Code> }} />
          {settings.data.loopbackHttpAllowed ? (
            <>
              {" "}
              <Rich
                id="developers.embed.hintLoopback"
                values={{ localhost: <Code>http://localhost</Code>, loopback: <Code>http://127.0.0.1</Code> }}
              />
            </>
          ) : null}
        </p>
      </div>
      {save.isError ? (
        <p role="alert" className="font-medium text-destructive-emphasis text-sm">
          {t("developers.embed.notSaved", {
            reason: developersErrorText(save.error, {
              origins: save.variables,
              loopbackHttp: settings.data.loopbackHttpAllowed,
            }),
          })}
        </p>
      ) : save.isSuccess && text === null ? (
        <p role="status" className="text-sm text-success">
          {save.data.origins.length === 0 ? (
            t("developers.embed.savedNone")
          ) : (
            <Rich
              id="developers.embed.saved"
              values={{ origins: <bdi dir="ltr">{save.data.origins.join(", ")}</bdi> }}
            />
          )}
        </p>
      ) : null}
      <Button type="submit" disabled={save.isPending} className="self-start">
        {save.isPending ? <Spinner size="sm" label={t("developers.busy.saving")} /> : null}{" "}
        {t("developers.embed.save")}
      </Button>
    </form>
  );
}

/** The button as a website shows it, made by the real /embed.js on this page, and the events it hears. */
function LivePreview({ target }: { target: ButtonTarget }) {
  const [events, setEvents] = React.useState<string[]>([]);
  const button = React.useRef<HTMLElement>(null);
  const t = useT();
  React.useEffect(() => {
    if (!document.querySelector('script[src="/embed.js"]')) {
      const script = document.createElement("script");
      script.src = "/embed.js";
      script.async = true;
      document.head.append(script);
    }
    const el = button.current;
    if (!el) return;
    const onResult = (event: Event) => {
      const detail = (event as CustomEvent<{ result: string; status?: string }>).detail;
      setEvents((list) => [...list, `${detail.result}${detail.status ? ` (${detail.status})` : ""}`]);
    };
    el.addEventListener("cpxtb:result", onResult);
    return () => el.removeEventListener("cpxtb:result", onResult);
  }, []);
  return (
    <div
      className="flex flex-col gap-3 rounded-lg border border-border border-dashed p-4"
      data-testid="embed-preview"
    >
      <p className="text-muted-foreground text-sm">{t("developers.preview.intro")}</p>
      {/* The snippet's own button, as a website written in English shows it: its words are the merchant's. */}
      <div lang="en" dir="ltr">
        {"link" in target ? (
          // embed.js opens it in the overlay; the href is the link's page, as a website's link keeps it.
          <a
            ref={button as React.RefObject<HTMLAnchorElement>}
            href={`/l/${encodeURIComponent(target.link)}`}
            data-cpxtb-link={target.link}
          >
            Pay with CPXTB
          </a>
        ) : (
          <button
            ref={button as React.RefObject<HTMLButtonElement>}
            type="button"
            data-cpxtb-payment={target.payment}
          >
            Pay with CPXTB
          </button>
        )}
      </div>
      <p className="text-sm" aria-live="polite" data-testid="embed-preview-events">
        {events.length === 0 ? (
          t("developers.preview.none")
        ) : (
          <Rich id="developers.preview.heard" values={{ events: <bdi dir="ltr">{events.join(", ")}</bdi> }} />
        )}
      </p>
    </div>
  );
}

export function PayButtonSection({ links = [] }: { links?: readonly EmbeddableLink[] }) {
  const newest = useNewestOpenPayment();
  const t = useT();
  const copyWords = useCopyWords();
  const [reference, setReference] = React.useState<string | null>(null);
  // "" = one payment request; otherwise a link's slug.
  const [sells, setSells] = React.useState("");
  const ref = (reference ?? newest.data?.reference ?? "").trim();
  const link = links.find((l) => l.slug === sells);
  const target: ButtonTarget | null = link ? { link: link.slug } : ref ? { payment: ref } : null;
  const origin = window.location.origin;
  return (
    <section
      aria-labelledby="pay-button-title"
      className="flex flex-col gap-4 rounded-xl border border-border bg-card p-4 sm:p-6"
    >
      <div>
        <h2 id="pay-button-title" className="flex items-center gap-2 font-semibold text-xl">
          <MousePointerClick className="size-5 text-primary" aria-hidden="true" />{" "}
          {t("developers.button.title")}
        </h2>
        <p className="mt-1 text-muted-foreground text-sm">{t("developers.button.intro")}</p>
      </div>
      <AllowedOrigins />
      {links.length > 0 ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor="embed-sells" className="font-medium text-sm">
            {t("developers.button.sells")}
          </label>
          <select
            id="embed-sells"
            value={link ? link.slug : ""}
            onChange={(event) => setSells(event.target.value)}
            className="h-11 rounded-md border border-input bg-background px-3 text-sm"
          >
            <option value="">{t("developers.button.sellsPayment")}</option>
            {links.map((l) => (
              <option key={l.slug} value={l.slug}>
                {t(l.active ? "developers.button.sellsLink" : "developers.button.sellsLinkOff", {
                  title: l.title,
                })}
              </option>
            ))}
          </select>
          <p className="text-muted-foreground text-sm">{t("developers.button.linkHint")}</p>
        </div>
      ) : null}
      {link ? null : (
        <Field
          name="embed-reference"
          label={t("developers.button.reference")}
          value={ref}
          onChange={(event) => setReference(event.target.value)}
          placeholder={t("developers.button.referencePlaceholder")}
          autoComplete="off"
          dir="ltr"
          hint={
            newest.data && reference === null ? (
              t("developers.button.referenceNewest")
            ) : (
              <Rich
                id="developers.button.referenceHint"
                values={{ endpoint: <Code>POST /api/v1/payments</Code> }}
              />
            )
          }
        />
      )}
      {target ? (
        <>
          <div className="flex flex-col gap-2">
            <div className="flex items-center justify-between gap-2">
              <span className="font-medium text-sm">{t("developers.button.snippet")}</span>
              <CopyButton
                value={paySnippet(origin, target)}
                label={t("developers.button.snippet")}
                words={copyWords}
              />
            </div>
            <pre
              dir="ltr"
              lang="en"
              className="whitespace-pre-wrap break-words rounded-md bg-muted p-3 font-mono text-xs"
              data-testid="embed-snippet"
            >
              {paySnippet(origin, target)}
            </pre>
          </div>
          {link && !link.active ? (
            <p className="text-muted-foreground text-sm">{t("developers.button.linkOff")}</p>
          ) : null}
          <LivePreview key={link ? `l:${link.slug}` : `p:${ref}`} target={target} />
        </>
      ) : (
        <p className="text-muted-foreground text-sm">{t("developers.button.none")}</p>
      )}
    </section>
  );
}
