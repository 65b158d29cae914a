import type { ApiKey } from "@common/api-keys";
import { KeyRound, RefreshCw, Trash2 } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { formatDateTime, formatRelative } from "@/features/payments/format";
import { Rich, useLocale, useT } from "@/i18n/i18n";
import { useApiKeys } from "../api/get-api-keys";
import { useRevokeApiKey } from "../api/revoke-api-key";
import { developersErrorText } from "../developers-error-text";
import { SCOPE_TEXT } from "./create-api-key-form";

function Time({ iso, empty }: { iso: string | null; empty: string }) {
  const locale = useLocale();
  if (!iso) return <span>{empty}</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso, locale)}>
      {formatRelative(iso, Date.now(), locale)}
    </time>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const revoke = useRevokeApiKey();
  const t = useT();
  const [confirming, setConfirming] = React.useState(false);
  const cancelRef = React.useRef<HTMLButtonElement>(null);
  const revokeRef = React.useRef<HTMLButtonElement>(null);
  React.useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);
  const cancel = () => {
    setConfirming(false);
    revoke.reset();
    requestAnimationFrame(() => revokeRef.current?.focus());
  };
  return (
    <li
      data-testid="api-key-row"
      aria-label={t("developers.keys.rowLabel", { name: apiKey.name })}
      className="flex flex-col gap-3 rounded-lg border border-border p-4 sm:flex-row sm:items-start sm:justify-between"
    >
      <div className="flex min-w-0 flex-col gap-1">
        <p className="flex items-center gap-2 font-semibold">
          <KeyRound className="size-4 shrink-0 text-primary" aria-hidden="true" />
          <span className="truncate">{apiKey.name}</span>
        </p>
        <p
          dir="ltr"
          className="self-start font-mono text-muted-foreground text-sm"
          title={t("developers.keys.prefixTitle")}
        >
          {apiKey.prefix}…
        </p>
        <ul className="flex flex-wrap gap-1.5" aria-label={t("developers.create.permissions")}>
          {apiKey.scopes.map((scope) => (
            <li
              key={scope}
              className="rounded-full bg-primary/12 px-2 py-0.5 font-medium text-primary text-xs"
            >
              {t(SCOPE_TEXT[scope].label)}
            </li>
          ))}
        </ul>
        <p className="text-muted-foreground text-sm tabular-nums">
          <Rich
            id="developers.keys.times"
            values={{
              created: <Time iso={apiKey.createdAt} empty="" />,
              lastUsed: <Time iso={apiKey.lastUsedAt} empty={t("developers.keys.never")} />,
            }}
          />
        </p>
      </div>
      {confirming ? (
        <section
          aria-label={t("developers.keys.revokeQuestion", { name: apiKey.name })}
          className="flex flex-col gap-2 rounded-md border border-destructive/50 p-3 sm:max-w-xs"
        >
          <p className="text-sm">{t("developers.keys.confirmRevoke", { name: apiKey.name })}</p>
          {revoke.isError ? (
            <p role="alert" className="font-medium text-destructive-emphasis text-sm">
              {developersErrorText(revoke.error)}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button ref={cancelRef} type="button" variant="outline" size="sm" onClick={cancel}>
              {t("developers.common.cancel")}
            </Button>
            <Button
              type="button"
              variant="destructive"
              size="sm"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate(apiKey.id)}
            >
              {revoke.isPending ? (
                <Spinner size="sm" label={t("developers.busy.revoking")} />
              ) : (
                <Trash2 aria-hidden="true" />
              )}{" "}
              {t("developers.keys.revokeKey")}
            </Button>
          </div>
        </section>
      ) : (
        <Button
          ref={revokeRef}
          type="button"
          variant="outline"
          size="sm"
          className="self-start"
          onClick={() => setConfirming(true)}
          aria-label={t("developers.keys.revokeLabel", { name: apiKey.name })}
        >
          <Trash2 aria-hidden="true" /> {t("developers.keys.revoke")}
        </Button>
      )}
    </li>
  );
}

export function ApiKeysList() {
  const keys = useApiKeys();
  const t = useT();
  return (
    <section aria-labelledby="keys-title" className="rounded-xl border border-border bg-card p-4 sm:p-6">
      <h2 id="keys-title" className="font-semibold text-xl">
        {t("developers.keys.title")}
      </h2>
      {keys.isPending ? (
        <div aria-busy="true" className="mt-4 flex flex-col gap-3">
          <div className="h-24 animate-pulse rounded-lg bg-muted motion-reduce:animate-none" />
          <div className="h-24 animate-pulse rounded-lg bg-muted motion-reduce:animate-none" />
        </div>
      ) : keys.isError ? (
        <div role="alert" className="mt-4 flex flex-col items-start gap-3">
          <p>{t("developers.keys.loadFailed", { reason: developersErrorText(keys.error) })}</p>
          <Button variant="outline" onClick={() => keys.refetch()}>
            <RefreshCw aria-hidden="true" /> {t("developers.common.tryAgain")}
          </Button>
        </div>
      ) : keys.data.items.length === 0 ? (
        <p className="mt-3 text-muted-foreground text-sm">{t("developers.keys.empty")}</p>
      ) : (
        <ul className="mt-4 flex flex-col gap-3">
          {keys.data.items.map((key) => (
            <KeyRow key={key.id} apiKey={key} />
          ))}
        </ul>
      )}
    </section>
  );
}
