import type { ChainConfigResponse } from "@common/chain";
import { useQuery } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import * as React from "react";
import { useLocale, useT } from "@/i18n/i18n";
import { CopyButton } from "../../components/copy-button";
import { useCopyWords } from "../../copy-words";
import { formatDateTime, shortAddress } from "../../format";

export function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-end tabular-nums">{children}</dd>
    </div>
  );
}

/** A moment in the reader's language and local time (`formatDateTime`), kept whole in right-to-left text. */
export function Time({ iso }: { iso: string }) {
  const locale = useLocale();
  return (
    <bdi>
      <time dateTime={iso} title={iso}>
        {formatDateTime(iso, locale)}
      </time>
    </bdi>
  );
}

export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const id = React.useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2 border-border border-t pt-4">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** The token's decimals, read off the amount due in tokens ("12.5") and in base units ("12500...0"). */
export function decimalsOf(payment: { amountDue: string; amountDueBase: string }): number {
  const [whole = "", fraction = ""] = payment.amountDue.split(".");
  const digits = `${whole}${fraction}`.replace(/^0+/, "");
  return fraction.length + payment.amountDueBase.length - digits.length;
}

export function baseToTokens(base: string, decimals: number): string {
  if (decimals === 0) return base;
  const text = base.padStart(decimals + 1, "0");
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

function useExplorer() {
  const chain = useQuery<ChainConfigResponse>({ queryKey: ["/api/chain-config"] });
  return chain.data?.blockExplorerUrl?.replace(/\/$/, "") ?? null;
}

export function TxHash({ hash }: { hash: string }) {
  const explorer = useExplorer();
  const t = useT();
  const copyWords = useCopyWords();
  return (
    <span className="inline-flex items-center gap-1">
      {explorer ? (
        <a
          href={`${explorer}/tx/${hash}`}
          target="_blank"
          rel="noreferrer"
          dir="ltr"
          className="inline-flex items-center gap-1 font-mono text-primary underline-offset-4 hover:underline"
          title={hash}
        >
          {shortAddress(hash)} <ExternalLink aria-hidden="true" className="size-3.5" />
        </a>
      ) : (
        <span className="font-mono" dir="ltr" title={hash}>
          {shortAddress(hash)}
        </span>
      )}
      <CopyButton
        value={hash}
        label={t("merchant.common.transactionHash")}
        words={copyWords}
        className="size-9 px-0 sm:w-auto sm:px-2"
      />
    </span>
  );
}
