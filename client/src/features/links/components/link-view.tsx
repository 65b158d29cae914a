import { publicLinkKey } from "@common/link-values";
import type { PublicLink } from "@common/links";
import type { Locale } from "@common/locales";
import { useMutation, useQuery } from "@tanstack/react-query";
import { CircleX, PackageX, PowerOff, ShoppingBag } from "lucide-react";
import type * as React from "react";
import { useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Rich, useLocale, useT } from "@/i18n/i18n";
import { apiRequest, isApiError } from "@/lib/api-client";
import { cn } from "@/lib/utils";
import { appearanceProps } from "../../payments/appearance";
import { CheckoutHeader } from "../../payments/components/checkout-header";
import { formatTokenAmount, formatUsd } from "../../payments/format";
import { payErrorText } from "../../payments/pay-error-text";

/** "$4.50" or "100.5 CPXTB": a link's amount in its own currency, written the reader's language's way. */
export function formatLinkAmount(amount: string, currency: "USD" | "CPXTB", locale: Locale = "en"): string {
  return currency === "USD" ? formatUsd(amount, locale) : `${formatTokenAmount(amount, locale)} CPXTB`;
}

type Paid = { reference: string; paymentUrl: string };

/**
 * A payment link's page (`/l/{slug}`, issue 35): arrives rendered by the server with the link in its HTML
 * (decision 017), hydrates in place; "Pay" makes a fresh payment request and continues on its pay page.
 */
export function LinkView({
  slug,
  headerEnd,
  embedOrigin = null,
}: {
  slug: string;
  headerEnd?: React.ReactNode;
  /** In the pay button's overlay: the host page's origin, carried on to the pay page. */
  embedOrigin?: string | null;
}) {
  const t = useT();
  const locale = useLocale();
  const query = useQuery<PublicLink | null>({ queryKey: [publicLinkKey(slug)] });
  const link = query.data;
  if (query.isPending) {
    return (
      <LinkShell headerEnd={headerEnd}>
        <div className="flex flex-col items-center gap-4 py-8" aria-busy="true">
          <div className="h-8 w-48 animate-pulse rounded bg-muted motion-reduce:animate-none" />
          <p className="text-muted-foreground text-sm">{t("pay.link.loading")}</p>
        </div>
      </LinkShell>
    );
  }
  if (!link) {
    const notFound = link === null || (isApiError(query.error) && query.error.status < 500);
    return (
      <LinkShell headerEnd={headerEnd}>
        <div role="alert" className="flex flex-col items-center gap-3 py-8 text-center">
          <CircleX aria-hidden="true" className="size-10 text-destructive-emphasis" />
          <h2 className="font-semibold text-xl">
            {notFound ? t("pay.link.notFound") : t("pay.link.loadFailed")}
          </h2>
          <p className="max-w-sm text-muted-foreground text-sm">
            {notFound ? t("pay.link.notFoundHint") : t("pay.link.loadFailedHint")}
          </p>
        </div>
      </LinkShell>
    );
  }
  return (
    <LinkShell link={link} headerEnd={headerEnd}>
      {link.imageUrl ? (
        <img
          src={link.imageUrl}
          alt=""
          width={448}
          height={252}
          className="aspect-video w-full rounded-lg border border-border bg-muted object-cover"
        />
      ) : null}
      <div className="flex flex-col gap-1">
        <h2 className="text-balance break-words font-bold text-2xl" data-testid="link-title">
          {link.title}
        </h2>
        {link.description ? (
          <p className="whitespace-pre-line break-words text-muted-foreground">{link.description}</p>
        ) : null}
      </div>
      {link.pricing === "fixed" && link.amount ? (
        <p className="font-bold text-3xl tabular-nums" dir="ltr" data-testid="link-price">
          {formatLinkAmount(link.amount, link.currency, locale)}
        </p>
      ) : null}
      {!link.active ? (
        <Notice icon={PowerOff} title={t("pay.link.offTitle")}>
          {t("pay.link.offText")}
        </Notice>
      ) : link.soldOut ? (
        <Notice icon={PackageX} title={t("pay.link.soldOutTitle")}>
          {t("pay.link.soldOutText")}
        </Notice>
      ) : (
        <PayForm link={link} embedOrigin={embedOrigin} />
      )}
    </LinkShell>
  );
}

function Notice({
  icon: Icon,
  title,
  children,
}: {
  icon: React.ComponentType<{ className?: string; "aria-hidden"?: boolean }>;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <div
      role="status"
      className="flex gap-3 rounded-md border border-border bg-muted p-3"
      data-testid="link-notice"
    >
      <Icon aria-hidden={true} className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
      <div className="flex flex-col gap-1">
        <p className="font-semibold">{title}</p>
        <p className="text-muted-foreground text-sm">{children}</p>
      </div>
    </div>
  );
}

function PayForm({ link, embedOrigin }: { link: PublicLink; embedOrigin: string | null }) {
  const t = useT();
  const locale = useLocale();
  const [, navigate] = useLocation();
  const pay = useMutation({
    mutationFn: async (amount: string | null) => {
      const response = await apiRequest("POST", `/api/links/public/${encodeURIComponent(link.slug)}/pay`, {
        amount,
      });
      return (await response.json()) as Paid;
    },
    onSuccess: (paid) =>
      navigate(
        embedOrigin
          ? `/pay/${paid.reference}?${new URLSearchParams({ embed: "1", origin: embedOrigin })}`
          : `/pay/${paid.reference}`,
      ),
  });
  const open = link.pricing === "open";
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Read from the form: a value typed before the page hydrated counts too.
    const amount = open ? String(new FormData(event.currentTarget).get("amount") ?? "").trim() : null;
    pay.mutate(amount);
  };
  const unit = link.currency === "USD" ? "USD" : "CPXTB";
  return (
    <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
      {open ? (
        <div className="flex flex-col gap-2">
          <Label htmlFor="link-amount">{t("pay.link.amountLabel", { unit })}</Label>
          <Input
            id="link-amount"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder={link.minAmount ?? ""}
            defaultValue={link.minAmount ?? ""}
            aria-describedby="link-amount-hint"
            aria-invalid={pay.isError ? true : undefined}
            dir="ltr"
            className="text-lg tabular-nums"
          />
          <p id="link-amount-hint" className="text-muted-foreground text-sm">
            <Rich
              id="pay.link.amountHint"
              values={{
                min: <bdi dir="ltr">{formatLinkAmount(link.minAmount ?? "0", link.currency, locale)}</bdi>,
              }}
            />
          </p>
        </div>
      ) : null}
      {pay.isError ? (
        <p role="alert" className="font-medium text-destructive-emphasis text-sm" data-testid="link-error">
          {payErrorText(pay.error, "link")}
        </p>
      ) : null}
      <Button
        type="submit"
        size="lg"
        className="w-full"
        disabled={pay.isPending || pay.isSuccess}
        data-testid="link-pay"
      >
        {pay.isPending || pay.isSuccess ? <Spinner size="sm" /> : <ShoppingBag aria-hidden="true" />}
        {t("pay.link.pay")}
      </Button>
      <p className="text-center text-muted-foreground text-xs">{t("pay.link.payHint")}</p>
    </form>
  );
}

function LinkShell({
  link,
  headerEnd,
  children,
}: {
  link?: PublicLink;
  headerEnd?: React.ReactNode;
  children: React.ReactNode;
}) {
  const t = useT();
  const appearance = appearanceProps(link?.merchant);
  const merchant = link?.merchant;
  return (
    <div
      className={cn("min-h-dvh bg-background text-foreground", appearance.className)}
      style={appearance.style}
      data-testid="link-page"
    >
      <div className="mx-auto flex w-full max-w-md flex-col gap-3 px-3 pt-3 pb-8 sm:pt-8">
        <CheckoutHeader merchant={merchant} subtitle={t("pay.link.subtitle")} end={headerEnd} />
        <section className="flex flex-col gap-4 rounded-xl border border-border border-t-4 border-t-primary bg-card p-4 text-card-foreground shadow-sm sm:p-6">
          {children}
        </section>
        <p className="text-center text-muted-foreground text-xs">{t("pay.link.poweredBy")}</p>
      </div>
    </div>
  );
}
