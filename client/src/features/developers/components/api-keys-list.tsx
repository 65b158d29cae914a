import type { ApiKey } from "@common/api-keys";
import { KeyRound, RefreshCw, Trash2 } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { errorText } from "@/features/payments/error-text";
import { formatDateTime, formatRelative } from "@/features/payments/format";
import { useApiKeys } from "../api/get-api-keys";
import { useRevokeApiKey } from "../api/revoke-api-key";
import { SCOPE_TEXT } from "./create-api-key-form";

function Time({ iso, empty }: { iso: string | null; empty: string }) {
  if (!iso) return <span>{empty}</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const revoke = useRevokeApiKey();
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
      aria-label={`API key ${apiKey.name}`}
      className="flex flex-col gap-3 rounded-lg border border-border p-4 sm:flex-row sm:items-start sm:justify-between"
    >
      <div className="flex min-w-0 flex-col gap-1">
        <p className="flex items-center gap-2 font-semibold">
          <KeyRound className="size-4 shrink-0 text-primary" aria-hidden="true" />
          <span className="truncate">{apiKey.name}</span>
        </p>
        <p className="font-mono text-muted-foreground text-sm" title="The start of the secret">
          {apiKey.prefix}…
        </p>
        <ul className="flex flex-wrap gap-1.5" aria-label="Permissions">
          {apiKey.scopes.map((scope) => (
            <li
              key={scope}
              className="rounded-full bg-primary/12 px-2 py-0.5 font-medium text-primary text-xs"
            >
              {SCOPE_TEXT[scope].label}
            </li>
          ))}
        </ul>
        <p className="text-muted-foreground text-sm tabular-nums">
          Created <Time iso={apiKey.createdAt} empty="" /> · Last used{" "}
          <Time iso={apiKey.lastUsedAt} empty="never" />
        </p>
      </div>
      {confirming ? (
        <section
          aria-label={`Revoke ${apiKey.name}?`}
          className="flex flex-col gap-2 rounded-md border border-destructive/50 p-3 sm:max-w-xs"
        >
          <p className="text-sm">
            Revoke “{apiKey.name}”? Requests with this key are refused at once. This cannot be undone.
          </p>
          {revoke.isError ? (
            <p role="alert" className="font-medium text-destructive-emphasis text-sm">
              {errorText(revoke.error)}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button ref={cancelRef} type="button" variant="outline" size="sm" onClick={cancel}>
              Cancel
            </Button>
            <Button
              type="button"
              variant="destructive"
              size="sm"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate(apiKey.id)}
            >
              {revoke.isPending ? <Spinner size="sm" /> : <Trash2 aria-hidden="true" />} Revoke key
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
          aria-label={`Revoke ${apiKey.name}`}
        >
          <Trash2 aria-hidden="true" /> Revoke
        </Button>
      )}
    </li>
  );
}

export function ApiKeysList() {
  const keys = useApiKeys();
  return (
    <section aria-labelledby="keys-title" className="rounded-xl border border-border bg-card p-4 sm:p-6">
      <h2 id="keys-title" className="font-semibold text-xl">
        Your API keys
      </h2>
      {keys.isPending ? (
        <div aria-busy="true" className="mt-4 flex flex-col gap-3">
          <div className="h-24 animate-pulse rounded-lg bg-muted motion-reduce:animate-none" />
          <div className="h-24 animate-pulse rounded-lg bg-muted motion-reduce:animate-none" />
        </div>
      ) : keys.isError ? (
        <div role="alert" className="mt-4 flex flex-col items-start gap-3">
          <p>The keys could not be loaded: {errorText(keys.error)}</p>
          <Button variant="outline" onClick={() => keys.refetch()}>
            <RefreshCw aria-hidden="true" /> Try again
          </Button>
        </div>
      ) : keys.data.items.length === 0 ? (
        <p className="mt-3 text-muted-foreground text-sm">
          No keys yet. Create one to let your shop's server create payments and follow their status.
        </p>
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
