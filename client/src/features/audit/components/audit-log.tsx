import { AUDIT_ACTIONS, type AuditAction, type AuditEvent } from "@common/audit";
import { FIRST_DAY, LAST_DAY } from "@common/dates";
import type { Locale } from "@common/locales";
import { ScrollText } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import {
  formatDateTime,
  formatExactTokenAmount,
  formatRelative,
  shortAddress,
} from "@/features/payments/format";
import { teamErrorText } from "@/features/team/team-error-text";
import { t, useLocale, useT } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";
import { type AuditFilter, useAuditEvents } from "../api/get-audit-events";

/** Each action's name (the glossaries' words: docs/i18n), in the list and the filter. */
const ACTION_NAME = {
  "auth.sign_in": "team.auditAction.auth_sign_in",
  "auth.sign_in_failed": "team.auditAction.auth_sign_in_failed",
  "auth.sign_out": "team.auditAction.auth_sign_out",
  "two_factor.enabled": "team.auditAction.two_factor_enabled",
  "two_factor.disabled": "team.auditAction.two_factor_disabled",
  "two_factor.recovery_codes_regenerated": "team.auditAction.two_factor_recovery_codes_regenerated",
  "two_factor.required_changed": "team.auditAction.two_factor_required_changed",
  "passkey.added": "team.auditAction.passkey_added",
  "passkey.removed": "team.auditAction.passkey_removed",
  "api_key.created": "team.auditAction.api_key_created",
  "api_key.revoked": "team.auditAction.api_key_revoked",
  "webhook.created": "team.auditAction.webhook_created",
  "webhook.updated": "team.auditAction.webhook_updated",
  "webhook.deleted": "team.auditAction.webhook_deleted",
  "webhook.secret_rotated": "team.auditAction.webhook_secret_rotated",
  "merchant.wallet_changed": "team.auditAction.merchant_wallet_changed",
  "merchant.embed_origins_changed": "team.auditAction.merchant_embed_origins_changed",
  "link.created": "team.auditAction.link_created",
  "link.updated": "team.auditAction.link_updated",
  "link.switched_off": "team.auditAction.link_switched_off",
  "link.switched_on": "team.auditAction.link_switched_on",
  "refund.recorded": "team.auditAction.refund_recorded",
  "refund.link_created": "team.auditAction.refund_link_created",
  "transfer.dismissed": "team.auditAction.transfer_dismissed",
  "member.invited": "team.auditAction.member_invited",
  "invitation.revoked": "team.auditAction.invitation_revoked",
  "member.joined": "team.auditAction.member_joined",
  "member.role_changed": "team.auditAction.member_role_changed",
  "member.removed": "team.auditAction.member_removed",
  "ownership.transferred": "team.auditAction.ownership_transferred",
} as const satisfies Record<AuditAction, string>;

/** How someone signed in (the first and the second factor); an unknown method is shown as its code. */
const METHOD_WORDS: Record<string, string> = {
  password: "team.audit.method.password",
  register: "team.audit.method.register",
  siwe: "team.audit.method.siwe",
  social: "team.audit.method.social",
  passkey: "team.audit.method.passkey",
  totp: "team.audit.method.totp",
  recovery: "team.audit.method.recovery",
};

/** Why a sign-in failed or an invitation was withdrawn; an unknown reason is shown as its code, in words. */
const REASON_WORDS: Record<string, string> = {
  wrong_password: "team.audit.reason.wrong_password",
  wrong_code: "team.audit.reason.wrong_code",
  unknown_passkey: "team.audit.reason.unknown_passkey",
  passkey_failed: "team.audit.reason.passkey_failed",
  inviter_lost_role: "team.audit.reason.inviter_lost_role",
};

const wordsOf = (table: Record<string, string>, code: string) => {
  const id = table[code];
  return id ? t(id) : code.replaceAll("_", " ");
};

/**
 * Short words about what was acted on, from the row's target and metadata (never secrets: none are stored), in
 * the reader's language; names, URLs, references, amounts and addresses as they are.
 */
function details(event: AuditEvent, locale: Locale): string {
  const m = event.metadata;
  const parts: string[] = [];
  if (typeof m.name === "string") parts.push(t("team.audit.detail.name", { name: m.name }));
  if (typeof m.url === "string") parts.push(isolate(m.url, locale));
  if (typeof m.reference === "string")
    parts.push(t("team.audit.detail.payment", { reference: isolate(m.reference, locale) }));
  if (typeof m.amount === "string")
    parts.push(isolate(`${formatExactTokenAmount(m.amount, locale)} CPXTB`, locale));
  if (typeof m.method === "string")
    parts.push(t("team.audit.detail.with", { method: wordsOf(METHOD_WORDS, m.method) }));
  if (typeof m.secondFactor === "string")
    parts.push(t("team.audit.detail.and", { method: wordsOf(METHOD_WORDS, m.secondFactor) }));
  if (typeof m.reason === "string") parts.push(wordsOf(REASON_WORDS, m.reason));
  if (typeof m.to === "string")
    parts.push(t("team.audit.detail.to", { target: isolate(shortAddress(m.to), locale) }));
  if (m.everywhere === true) parts.push(t("team.audit.detail.everywhere"));
  if (typeof m.enabled === "boolean")
    parts.push(t(m.enabled ? "team.audit.detail.enabled" : "team.audit.detail.disabled"));
  if (typeof m.requireTwoFactor === "boolean")
    parts.push(t(m.requireTwoFactor ? "team.audit.detail.required" : "team.audit.detail.notRequired"));
  return parts.join(" · ");
}

function EventRow({ event }: { event: AuditEvent }) {
  const failed = event.action === "auth.sign_in_failed";
  const t = useT();
  const locale = useLocale();
  const line = [
    event.actor ? t("team.audit.by", { name: event.actor }) : null,
    details(event, locale),
    event.ip ? t("team.audit.fromIp", { ip: isolate(event.ip, locale) }) : null,
  ];
  return (
    <li className="grid gap-1 p-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] sm:items-baseline sm:gap-4">
      <span className={failed ? "font-medium text-destructive" : "font-medium"}>
        {t(ACTION_NAME[event.action])}
      </span>
      <span className="min-w-0 break-words text-muted-foreground text-sm">
        {line.filter(Boolean).join(" · ")}
      </span>
      <time
        dateTime={event.createdAt}
        title={formatDateTime(event.createdAt, locale)}
        className="text-sm tabular-nums"
      >
        {formatRelative(event.createdAt, Date.now(), locale)}
      </time>
    </li>
  );
}

export function AuditLog() {
  const [filter, setFilter] = React.useState<AuditFilter>({});
  const events = useAuditEvents(filter);
  const items = events.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = Boolean(filter.action || filter.from || filter.to);
  const t = useT();

  return (
    <div className="flex flex-col gap-4">
      {/* One column of the screen's width on a phone: a long action name (German) must not widen it. */}
      <form
        aria-label={t("team.audit.filterLabel")}
        className="grid grid-cols-[minmax(0,1fr)] gap-3 rounded-xl border border-border bg-card p-4 sm:grid-cols-3"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="flex flex-col gap-2">
          <Label htmlFor="audit-action">{t("team.audit.action")}</Label>
          <select
            id="audit-action"
            className="h-11 w-full min-w-0 rounded-md border border-input bg-background px-3 text-sm"
            value={filter.action ?? ""}
            onChange={(event) => {
              // Read now: React clears currentTarget once the handler returns, before the updater runs.
              const action = (event.currentTarget.value || undefined) as AuditAction | undefined;
              setFilter((f) => ({ ...f, action }));
            }}
          >
            <option value="">{t("team.audit.allActions")}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {t(ACTION_NAME[action])}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="audit-from">{t("team.audit.from")}</Label>
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
          <Label htmlFor="audit-to">{t("team.audit.to")}</Label>
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
          {t("team.audit.events")}
        </h2>
        {events.isPending ? (
          <div className="p-6">
            <Spinner label={t("team.audit.loading")} />
          </div>
        ) : events.isError ? (
          <p role="alert" className="p-6 text-destructive-emphasis text-sm">
            {t("team.audit.loadFailed")} {teamErrorText(events.error)}
          </p>
        ) : items.length === 0 ? (
          <div className="flex flex-col items-center gap-2 p-8 text-center">
            <ScrollText aria-hidden="true" className="size-8 text-muted-foreground" />
            <p className="font-medium">{t(filtered ? "team.audit.noMatch" : "team.audit.empty")}</p>
            <p className="text-muted-foreground text-sm">
              {t(filtered ? "team.audit.noMatchHint" : "team.audit.emptyHint")}
            </p>
          </div>
        ) : (
          <ul className="divide-y divide-border" aria-label={t("team.audit.eventsLabel")}>
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
          {t(events.isFetchingNextPage ? "team.audit.loadingMore" : "team.audit.showOlder")}
        </Button>
      ) : null}
    </div>
  );
}
