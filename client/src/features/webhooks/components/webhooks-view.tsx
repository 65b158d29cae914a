import type { Locale } from "@common/locales";
import {
  createWebhookEndpointRequest,
  isLoopbackUrl,
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookEvent,
} from "@common/webhooks";
import {
  CircleAlert,
  CircleCheck,
  Clock,
  FlaskConical,
  KeyRound,
  Plus,
  RefreshCw,
  RotateCcw,
  Send,
  Trash2,
  Webhook,
  XCircle,
} from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { developersErrorText, schemaText } from "@/features/developers/developers-error-text";
import { CopyButton } from "@/features/payments/components/copy-button";
import { useCopyWords } from "@/features/payments/copy-words";
import { formatDateTime, formatRelative } from "@/features/payments/format";
import { payToastWords } from "@/features/payments/toast-words";
import { toast } from "@/hooks/use-toast";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { currentLocale, Rich, t, useLocale, useT } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";
import {
  useCreateEndpoint,
  useDeleteEndpoint,
  useDeliveries,
  useReplayDelivery,
  useRotateSecret,
  useSendTestEvent,
  useUpdateEndpoint,
  useWebhookEndpoints,
} from "../api/webhooks";

/** The events' names (docs/i18n glossaries); the event itself (`payment.completed`) is shown as written. */
const EVENT_LABEL = {
  "payment.created": "developers.event.created",
  "payment.processing": "developers.event.processing",
  "payment.partial": "developers.event.partial",
  "payment.completed": "developers.event.completed",
  "payment.expired": "developers.event.expired",
  "payment.paid_late": "developers.event.paidLate",
  "payment.invalid": "developers.event.invalid",
  "payment.cancelled": "developers.event.cancelled",
  "payment.refunded": "developers.event.refunded",
} as const satisfies Record<WebhookEvent, string>;

/** Why the server turned an endpoint off, in its words (server/src/modules/notifications/runtime.ts). */
const GONE_REASON = "The endpoint answered 410 Gone.";

/** A toast in the reader's language (its text, and the toaster's own labels). */
function say(props: { title: string; description?: string; variant?: "destructive" }) {
  toast({ ...props, ...payToastWords(t, currentLocale()) });
}

const failed = (title: string) => (error: unknown) =>
  say({ variant: "destructive", title: t(title), description: developersErrorText(error) });

/** An identifier, URL or command in a sentence: as written, left to right in every language. */
function Code({ children }: { children: string }) {
  return (
    <code dir="ltr" className="font-mono">
      {children}
    </code>
  );
}

/** The signing secret, shown once after creation or rotation, with a copy button. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const t = useT();
  const copyWords = useCopyWords();
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-warning/60 bg-warning/10 p-4"
      data-testid="webhook-secret"
    >
      <p className="flex items-center gap-2 font-semibold">
        <KeyRound className="size-5" aria-hidden="true" /> {t("developers.webhooks.secretTitle")}
      </p>
      <p className="text-muted-foreground text-sm">{t("developers.webhooks.secretText")}</p>
      <div className="flex flex-wrap items-center gap-2">
        <code dir="ltr" className="min-w-0 flex-1 break-all rounded-md bg-muted px-3 py-2 font-mono text-sm">
          {secret}
        </code>
        <CopyButton
          value={secret}
          label={t("developers.webhooks.secretLabel")}
          copiedText={t("developers.webhooks.secretCopied")}
          words={copyWords}
        />
      </div>
      <Button type="button" variant="outline" className="self-start" onClick={onDone}>
        {t("developers.webhooks.secretDone")}
      </Button>
    </div>
  );
}

function EventCheckboxes({ selected, name }: { selected: readonly WebhookEvent[]; name: string }) {
  const t = useT();
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-2 font-medium text-sm">{t("developers.webhooks.eventsLegend")}</legend>
      <div className="grid gap-x-4 sm:grid-cols-2">
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event} className="flex min-h-11 cursor-pointer items-center gap-3">
            <input
              type="checkbox"
              name={name}
              value={event}
              defaultChecked={selected.includes(event)}
              className="size-5 accent-[var(--primary)]"
            />
            <span className="text-sm">
              {t(EVENT_LABEL[event])}{" "}
              <code dir="ltr" className="text-muted-foreground text-xs">
                {event}
              </code>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A receiver to try webhooks with on this machine: prints each delivery and answers 200. */
const LOCAL_RECEIVER = `node -e "require('http').createServer((q,s)=>{let b='';q.on('data',c=>b+=c);q.on('end',()=>{console.log(q.headers['webhook-id'],b);s.end('ok')})}).listen(4000)"`;

/** How to try webhooks before a public server exists: on this install, or (a deployment) through a tunnel. */
function TestLocally({ localTargets }: { localTargets: boolean }) {
  const t = useT();
  return (
    <section
      aria-labelledby="test-locally-title"
      data-testid="webhooks-test-locally"
      className="flex flex-col gap-2 rounded-xl border border-border bg-card p-4 text-sm sm:p-6"
    >
      <h2 id="test-locally-title" className="flex items-center gap-2 font-semibold text-base">
        <FlaskConical className="size-5" aria-hidden="true" /> {t("developers.webhooks.testTitle")}
      </h2>
      {localTargets ? (
        <>
          <p>{t("developers.webhooks.testDev")}</p>
          {/* Wraps instead of scrolling sideways: a region that scrolls must be reachable by keyboard (axe). */}
          <pre
            dir="ltr"
            className="whitespace-pre-wrap break-words rounded-md bg-muted p-3 font-mono text-xs"
          >
            {LOCAL_RECEIVER}
          </pre>
          <p>
            <Rich
              id="developers.webhooks.testDevThen"
              values={{ url: <Code>http://127.0.0.1:4000/</Code>, button: t("developers.webhooks.sendTest") }}
            />
          </p>
        </>
      ) : (
        <p>
          <Rich
            id="developers.webhooks.testLive"
            values={{
              command: <Code>npm start</Code>,
              loopback: <Code>http://127.0.0.1</Code>,
              localhost: <Code>http://localhost</Code>,
            }}
          />
        </p>
      )}
    </section>
  );
}

function AddEndpointForm({
  onCreated,
  localTargets,
}: {
  onCreated: (endpoint: WebhookEndpointWithSecret) => void;
  localTargets: boolean;
}) {
  const create = useCreateEndpoint();
  const t = useT();
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const unsaved = useUnsavedChanges({
    words: {
      title: t("developers.unsaved.title"),
      description: t("developers.unsaved.endpoint"),
      confirm: t("developers.unsaved.discard"),
      cancel: t("developers.unsaved.keep"),
    },
  });
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const parsed = createWebhookEndpointRequest.safeParse({
      url: String(form.get("url") ?? ""),
      events: form.getAll("events").map(String),
    });
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), schemaText(i.message)])),
      );
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (endpoint) => {
        formElement.reset();
        unsaved.markSaved();
        onCreated(endpoint);
      },
      onError: (error) => {
        // The server's refusal of the URL (its form, its host) is said under the field; anything else in a toast.
        const body = (error as { body?: { error?: { code?: string } } }).body;
        if (body?.error?.code === "VALIDATION_ERROR" || body?.error?.code === "CONFLICT")
          setErrors({ url: developersErrorText(error) });
        else failed("developers.webhooks.addFailed")(error);
      },
    });
  };
  return (
    <section className="rounded-xl border border-border bg-card p-4 sm:p-6">
      <h2 className="font-semibold text-xl">{t("developers.webhooks.addTitle")}</h2>
      <p className="mt-1 text-muted-foreground text-sm">{t("developers.webhooks.addIntro")}</p>
      <form ref={unsaved.formRef} onSubmit={submit} noValidate className="mt-4 flex flex-col gap-4">
        {unsaved.dialog}
        <Field
          name="url"
          label={t("developers.webhooks.url")}
          type="url"
          dir="ltr"
          inputMode="url"
          placeholder="https://shop.example/webhooks/cpxtb"
          required
          error={errors.url}
          hint={localTargets ? t("developers.webhooks.urlHintDev") : t("developers.webhooks.urlHint")}
        />
        {/* Every payment event at first: a merchant unticks what it does not need. */}
        <EventCheckboxes name="events" selected={WEBHOOK_EVENTS} />
        {errors.events ? (
          <p className="font-medium text-destructive text-sm" role="alert">
            {errors.events}
          </p>
        ) : null}
        <Button type="submit" className="self-start" disabled={create.isPending}>
          {create.isPending ? (
            <Spinner size="sm" label={t("developers.busy.adding")} />
          ) : (
            <Plus aria-hidden="true" />
          )}{" "}
          {t("developers.webhooks.add")}
        </Button>
      </form>
    </section>
  );
}

function DeliveryStatus({ delivery }: { delivery: WebhookDelivery }) {
  const t = useT();
  if (delivery.status === "delivered")
    return (
      <span className="inline-flex items-center gap-1.5 font-medium text-success">
        <CircleCheck className="size-4" aria-hidden="true" /> {t("developers.webhooks.delivered")}
      </span>
    );
  if (delivery.status === "failed")
    return (
      <span className="inline-flex items-center gap-1.5 font-medium text-destructive">
        <XCircle className="size-4" aria-hidden="true" /> {t("developers.webhooks.failed")}
      </span>
    );
  return (
    <span className="inline-flex items-center gap-1.5 font-medium text-warning-foreground dark:text-warning">
      <Clock className="size-4" aria-hidden="true" />{" "}
      {t(delivery.attempts > 0 ? "developers.webhooks.retrying" : "developers.webhooks.sending")}
    </span>
  );
}

/** A time of day in the reader's language (Latin digits, as every time the app writes). */
function formatTime(iso: string, locale: Locale): string {
  return new Date(iso).toLocaleTimeString(locale === "ar" ? "ar-u-nu-latn" : locale);
}

/** The body as sent, indented to read (unchanged when it is not JSON). */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const deliveries = useDeliveries(endpointId);
  const replay = useReplayDelivery(endpointId);
  const t = useT();
  const locale = useLocale();
  if (deliveries.isPending) return <Spinner label={t("developers.webhooks.loadingDeliveries")} />;
  if (deliveries.isError)
    return (
      <p className="text-destructive text-sm" role="alert">
        {t("developers.webhooks.deliveriesFailed", { reason: developersErrorText(deliveries.error) })}
      </p>
    );
  const items = deliveries.data.items;
  if (items.length === 0)
    return (
      <p className="text-muted-foreground text-sm">
        {t("developers.webhooks.noDeliveries", { button: t("developers.webhooks.sendTest") })}
      </p>
    );
  return (
    <ul
      className="flex flex-col divide-y divide-border"
      aria-label={t("developers.webhooks.deliveriesLabel")}
    >
      {items.map((d) => (
        <li key={d.id} className="flex flex-col gap-1 py-3 text-sm" data-testid="webhook-delivery">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <DeliveryStatus delivery={d} />
              <code dir="ltr" className="text-xs">
                {d.eventType}
              </code>
            </span>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              disabled={replay.isPending}
              onClick={() =>
                replay.mutate(d.id, {
                  onSuccess: () => say({ title: t("developers.webhooks.replayed") }),
                  onError: failed("developers.webhooks.replayFailed"),
                })
              }
            >
              <RotateCcw aria-hidden="true" /> {t("developers.webhooks.replay")}
            </Button>
          </div>
          <p className="text-muted-foreground tabular-nums">
            <span title={formatDateTime(d.createdAt, locale)}>
              {formatRelative(d.createdAt, Date.now(), locale)}
            </span>
            {" · "}
            {t("developers.webhooks.attempts", { count: d.attempts })}
            {d.lastStatusCode !== null ? (
              <>
                {" · "}
                <bdi dir="ltr">HTTP {d.lastStatusCode}</bdi>
              </>
            ) : null}
            {d.nextAttemptAt
              ? ` · ${t("developers.webhooks.nextTry", { time: formatTime(d.nextAttemptAt, locale) })}`
              : ""}
          </p>
          {/* The receiver's or the network's own words (as the server recorded them). */}
          {d.lastError ? (
            <p lang="en" dir="ltr" className="text-start text-destructive">
              {d.lastError}
            </p>
          ) : null}
          <details data-testid="delivery-payload">
            <summary className="min-h-11 cursor-pointer content-center text-muted-foreground">
              {t("developers.webhooks.payload")}
            </summary>
            <pre
              dir="ltr"
              className="max-h-60 overflow-auto whitespace-pre-wrap break-all rounded-md bg-muted p-2 text-xs"
            >
              {prettyJson(d.payload)}
            </pre>
          </details>
          {d.lastResponse ? (
            <details data-testid="delivery-response">
              <summary className="min-h-11 cursor-pointer content-center text-muted-foreground">
                {d.lastStatusCode !== null
                  ? t("developers.webhooks.answerStatus", { status: d.lastStatusCode })
                  : t("developers.webhooks.answer")}
              </summary>
              <pre
                dir="ltr"
                className="max-h-40 overflow-auto whitespace-pre-wrap break-all rounded-md bg-muted p-2 text-xs"
              >
                {d.lastResponse}
              </pre>
            </details>
          ) : null}
          <p dir="ltr" className="break-all text-start text-muted-foreground text-xs">
            webhook-id {d.messageId}
          </p>
        </li>
      ))}
    </ul>
  );
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const update = useUpdateEndpoint(endpoint.id);
  const remove = useDeleteEndpoint(endpoint.id);
  const rotate = useRotateSecret(endpoint.id);
  const test = useSendTestEvent(endpoint.id);
  const [secret, setSecret] = React.useState<string | null>(null);
  const [editing, setEditing] = React.useState(false);
  const t = useT();
  const locale = useLocale();
  const saveEvents = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const events = new FormData(event.currentTarget).getAll("events").map(String) as WebhookEvent[];
    if (events.length === 0) {
      say({ variant: "destructive", title: t("developers.webhooks.eventsMissing") });
      return;
    }
    update.mutate(
      { events },
      { onSuccess: () => setEditing(false), onError: failed("developers.webhooks.saveEventsFailed") },
    );
  };
  return (
    <li
      className="flex flex-col gap-4 rounded-xl border border-border bg-card p-4 sm:p-6"
      data-testid="webhook-endpoint"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <h3 dir="ltr" className="break-all text-start font-mono font-semibold text-sm sm:text-base">
            {endpoint.url}
          </h3>
          <p className="flex flex-wrap items-center gap-2 text-sm">
            {isLoopbackUrl(endpoint.url) ? (
              <span
                className="inline-flex items-center gap-1.5 rounded-full border border-border bg-muted px-2.5 py-0.5 font-medium text-xs"
                data-testid="development-only"
              >
                <FlaskConical className="size-3.5" aria-hidden="true" /> {t("developers.webhooks.devOnly")}
              </span>
            ) : null}
            {/* The switch says "Enabled"; only a turned-off endpoint says more (and why). */}
            {endpoint.enabled ? null : (
              <span className="inline-flex items-center gap-1.5 text-muted-foreground">
                <CircleAlert className="size-4" aria-hidden="true" />
                {endpoint.disabledReason === GONE_REASON
                  ? t("developers.webhooks.disabledGone")
                  : endpoint.disabledReason
                    ? t("developers.webhooks.disabledBecause", { reason: endpoint.disabledReason })
                    : t("developers.webhooks.disabled")}
              </span>
            )}
            {endpoint.previousSecretExpiresAt ? (
              <span className="text-muted-foreground">
                ·{" "}
                {t("developers.webhooks.previousSecret", {
                  time: formatDateTime(endpoint.previousSecretExpiresAt, locale),
                })}
              </span>
            ) : null}
          </p>
        </div>
        <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-5 accent-[var(--primary)]"
            checked={endpoint.enabled}
            disabled={update.isPending}
            onChange={(e) =>
              update.mutate(
                { enabled: e.target.checked },
                { onError: failed("developers.webhooks.changeFailed") },
              )
            }
          />
          {t("developers.webhooks.enabled")}
        </label>
      </div>

      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}

      {editing ? (
        <form onSubmit={saveEvents} className="flex flex-col gap-3">
          <EventCheckboxes name="events" selected={endpoint.events} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={update.isPending}>
              {t("developers.webhooks.saveEvents")}
            </Button>
            <Button type="button" variant="outline" onClick={() => setEditing(false)}>
              {t("developers.common.cancel")}
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-muted-foreground text-sm">{t("developers.webhooks.events")}</span>
          {endpoint.events.map((e) => (
            <code key={e} dir="ltr" className="rounded bg-muted px-2 py-1 text-xs">
              {e}
            </code>
          ))}
          <Button type="button" variant="link" size="sm" onClick={() => setEditing(true)}>
            {t("developers.webhooks.editEvents")}
          </Button>
        </div>
      )}

      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="secondary"
          disabled={test.isPending || !endpoint.enabled}
          onClick={() =>
            test.mutate(undefined, {
              onSuccess: () =>
                say({
                  title: t("developers.webhooks.testQueued"),
                  description: t("developers.webhooks.testQueuedDetail"),
                }),
              onError: failed("developers.webhooks.testFailed"),
            })
          }
        >
          <Send aria-hidden="true" /> {t("developers.webhooks.sendTest")}
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={rotate.isPending}
          onClick={() => {
            if (!window.confirm(t("developers.webhooks.confirmRotate"))) return;
            rotate.mutate(undefined, {
              onSuccess: (result) => setSecret(result.secret),
              onError: failed("developers.webhooks.rotateFailed"),
            });
          }}
        >
          <RefreshCw aria-hidden="true" /> {t("developers.webhooks.rotate")}
        </Button>
        <Button
          type="button"
          variant="outline"
          className="text-destructive"
          disabled={remove.isPending}
          onClick={() => {
            if (
              !window.confirm(t("developers.webhooks.confirmDelete", { url: isolate(endpoint.url, locale) }))
            )
              return;
            remove.mutate(undefined, { onError: failed("developers.webhooks.deleteFailed") });
          }}
        >
          <Trash2 aria-hidden="true" /> {t("developers.webhooks.delete")}
        </Button>
      </div>

      <section
        aria-label={t("developers.webhooks.logLabel", { url: endpoint.url })}
        className="flex flex-col gap-2"
      >
        <h4 className="font-semibold">{t("developers.webhooks.log")}</h4>
        <DeliveryLog endpointId={endpoint.id} />
      </section>
    </li>
  );
}

export function WebhooksView() {
  const endpoints = useWebhookEndpoints(true);
  const [created, setCreated] = React.useState<WebhookEndpointWithSecret | null>(null);
  const t = useT();
  return (
    <div className="flex flex-col gap-6">
      {created ? <SecretOnce secret={created.secret} onDone={() => setCreated(null)} /> : null}
      <AddEndpointForm onCreated={setCreated} localTargets={endpoints.data?.localTargets ?? false} />
      {endpoints.data ? <TestLocally localTargets={endpoints.data.localTargets} /> : null}
      <section className="flex flex-col gap-4" aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading" className="font-semibold text-xl">
          {t("developers.webhooks.endpoints")}
        </h2>
        {endpoints.isPending ? (
          <Spinner label={t("developers.webhooks.loadingEndpoints")} />
        ) : endpoints.isError ? (
          <p className="text-destructive" role="alert">
            {t("developers.webhooks.endpointsFailed", { reason: developersErrorText(endpoints.error) })}
          </p>
        ) : endpoints.data.items.length === 0 ? (
          <div className="flex flex-col items-start gap-2 rounded-xl border border-border border-dashed p-4 sm:p-6">
            <Webhook className="size-6 text-muted-foreground" aria-hidden="true" />
            <p className="font-semibold">{t("developers.webhooks.noEndpoints")}</p>
            <p className="text-muted-foreground text-sm">{t("developers.webhooks.noEndpointsText")}</p>
          </div>
        ) : (
          <ul className="flex flex-col gap-4">
            {endpoints.data.items.map((endpoint) => (
              <EndpointCard key={endpoint.id} endpoint={endpoint} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
