import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditAction, type AuditEvent } from "@common/audit";
import { FIRST_DAY, LAST_DAY } from "@common/dates";
import { ScrollText } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { errorText } from "@/lib/error-text";
import { type AuditFilter, useAuditEvents } from "../api/get-audit-events";

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

function ago(iso: string): string {
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ["day", 86_400],
    ["hour", 3600],
    ["minute", 60],
  ];
  for (const [unit, size] of units)
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  return "just now";
}

const METHOD_WORDS: Record<string, string> = {
  password: "password",
  register: "a new account",
  siwe: "Ethereum wallet",
  social: "social account",
  passkey: "passkey",
  totp: "authenticator app",
  recovery: "recovery code",
};

/** Short words about what was acted on, from the row's target and metadata (never secrets: none are stored). */
function details(event: AuditEvent): string {
  const m = event.metadata;
  const parts: string[] = [];
  if (typeof m.name === "string") parts.push(`“${m.name}”`);
  if (typeof m.url === "string") parts.push(m.url);
  if (typeof m.reference === "string") parts.push(`payment ${m.reference}`);
  if (typeof m.amount === "string") parts.push(`${m.amount} CPXTB`);
  if (typeof m.method === "string") parts.push(`with ${METHOD_WORDS[m.method] ?? m.method}`);
  if (typeof m.secondFactor === "string") parts.push(`and ${METHOD_WORDS[m.secondFactor] ?? m.secondFactor}`);
  if (typeof m.reason === "string") parts.push(m.reason.replaceAll("_", " "));
  if (typeof m.to === "string") parts.push(`to ${m.to.slice(0, 6)}…${m.to.slice(-4)}`);
  if (m.everywhere === true) parts.push("on every device");
  if (typeof m.enabled === "boolean") parts.push(m.enabled ? "enabled" : "disabled");
  if (typeof m.requireTwoFactor === "boolean") parts.push(m.requireTwoFactor ? "required" : "not required");
  return parts.join(" · ");
}

function EventRow({ event }: { event: AuditEvent }) {
  const failed = event.action === "auth.sign_in_failed";
  return (
    <li className="grid gap-1 p-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] sm:items-baseline sm:gap-4">
      <span className={failed ? "font-medium text-destructive" : "font-medium"}>
        {AUDIT_ACTION_LABELS[event.action]}
      </span>
      <span className="min-w-0 break-words text-muted-foreground text-sm">
        {[event.actor ? `by ${event.actor}` : null, details(event), event.ip ? `from ${event.ip}` : null]
          .filter(Boolean)
          .join(" · ")}
      </span>
      <time
        dateTime={event.createdAt}
        title={timeFormat.format(new Date(event.createdAt))}
        className="text-sm tabular-nums"
      >
        {ago(event.createdAt)}
      </time>
    </li>
  );
}

export function AuditLog() {
  const [filter, setFilter] = React.useState<AuditFilter>({});
  const events = useAuditEvents(filter);
  const items = events.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = Boolean(filter.action || filter.from || filter.to);

  return (
    <div className="flex flex-col gap-4">
      <form
        aria-label="Filter the audit log"
        className="grid gap-3 rounded-xl border border-border bg-card p-4 sm:grid-cols-3"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="flex flex-col gap-2">
          <Label htmlFor="audit-action">Action</Label>
          <select
            id="audit-action"
            className="h-11 rounded-md border border-input bg-background px-3 text-sm"
            value={filter.action ?? ""}
            onChange={(event) => {
              // Read now: React clears currentTarget once the handler returns, before the updater runs.
              const action = (event.currentTarget.value || undefined) as AuditAction | undefined;
              setFilter((f) => ({ ...f, action }));
            }}
          >
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {AUDIT_ACTION_LABELS[action]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="audit-from">From</Label>
          <Input
            id="audit-from"
            type="date"
            min={FIRST_DAY}
            max={LAST_DAY}
            value={filter.from ?? ""}
            onChange={(event) => {
              const from = event.currentTarget.value || undefined;
              setFilter((f) => ({ ...f, from }));
            }}
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="audit-to">To</Label>
          <Input
            id="audit-to"
            type="date"
            min={FIRST_DAY}
            max={LAST_DAY}
            value={filter.to ?? ""}
            onChange={(event) => {
              const to = event.currentTarget.value || undefined;
              setFilter((f) => ({ ...f, to }));
            }}
          />
        </div>
      </form>
      <section aria-labelledby="audit-events-heading" className="rounded-xl border border-border bg-card">
        <h2 id="audit-events-heading" className="sr-only">
          Events
        </h2>
        {events.isPending ? (
          <div className="p-6">
            <Spinner label="Loading the audit log" />
          </div>
        ) : events.isError ? (
          <p role="alert" className="p-6 text-destructive-emphasis text-sm">
            The audit log could not be loaded. {errorText(events.error)}
          </p>
        ) : items.length === 0 ? (
          <div className="flex flex-col items-center gap-2 p-8 text-center">
            <ScrollText aria-hidden="true" className="size-8 text-muted-foreground" />
            <p className="font-medium">{filtered ? "No events match this filter" : "No events yet"}</p>
            <p className="text-muted-foreground text-sm">
              {filtered
                ? "Choose another action or widen the dates."
                : "Sign-ins, two-factor changes, API keys, webhooks and wallet changes appear here as they happen."}
            </p>
          </div>
        ) : (
          <ul className="divide-y divide-border" aria-label="Audit events">
            {items.map((event) => (
              <EventRow key={event.id} event={event} />
            ))}
          </ul>
        )}
      </section>
      {events.hasNextPage ? (
        <Button
          type="button"
          variant="outline"
          className="self-center"
          disabled={events.isFetchingNextPage}
          onClick={() => void events.fetchNextPage()}
        >
          {events.isFetchingNextPage ? "Loading..." : "Show older events"}
        </Button>
      ) : null}
    </div>
  );
}
