import {
  createWebhookEndpointRequest,
  isLoopbackUrl,
  WEBHOOK_EVENT_LABELS,
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
import { describeError } from "@/features/auth/error-message";
import { CopyButton } from "@/features/payments/components/copy-button";
import { formatDateTime, formatRelative } from "@/features/payments/format";
import { toast } from "@/hooks/use-toast";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
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

const failed = (title: string) => (error: unknown) =>
  toast({ variant: "destructive", title, description: describeError(error) });

/** The signing secret, shown once after creation or rotation, with a copy button. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-warning/60 bg-warning/10 p-4"
      data-testid="webhook-secret"
    >
      <p className="flex items-center gap-2 font-semibold">
        <KeyRound className="size-5" aria-hidden="true" /> Signing secret: copy it now
      </p>
      <p className="text-muted-foreground text-sm">
        It is shown only this once. Your server uses it to check that each delivery really comes from CPXTB
        Pay.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded-md bg-muted px-3 py-2 font-mono text-sm">
          {secret}
        </code>
        <CopyButton value={secret} label="Secret" copiedText="Store it in your server's configuration." />
      </div>
      <Button type="button" variant="outline" className="self-start" onClick={onDone}>
        I have stored it
      </Button>
    </div>
  );
}

function EventCheckboxes({ selected, name }: { selected: readonly WebhookEvent[]; name: string }) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-2 font-medium text-sm">Events to send</legend>
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
              {WEBHOOK_EVENT_LABELS[event]} <code className="text-muted-foreground text-xs">{event}</code>
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
  return (
    <section
      aria-labelledby="test-locally-title"
      data-testid="webhooks-test-locally"
      className="flex flex-col gap-2 rounded-xl border border-border bg-card p-4 text-sm sm:p-6"
    >
      <h2 id="test-locally-title" className="flex items-center gap-2 font-semibold text-base">
        <FlaskConical className="size-5" aria-hidden="true" /> Test locally
      </h2>
      {localTargets ? (
        <>
          <p>
            This is a development install: endpoints on this machine are accepted (development only). Start a
            receiver that prints what it gets:
          </p>
          {/* Wraps instead of scrolling sideways: a region that scrolls must be reachable by keyboard (axe). */}
          <pre className="whitespace-pre-wrap break-words rounded-md bg-muted p-3 font-mono text-xs">
            {LOCAL_RECEIVER}
          </pre>
          <p>
            Add <code className="font-mono">http://127.0.0.1:4000/</code> below, then press “Send test event”:
            the delivery log shows the payload sent and your receiver's answer.
          </p>
        </>
      ) : (
        <p>
          This deployment sends webhooks to public https addresses only. To try them from your own computer,
          expose your local server through an https tunnel and add the tunnel's address, or run CPXTB Pay as a
          development install (npm start on your machine), which accepts{" "}
          <code className="font-mono">http://127.0.0.1</code> and{" "}
          <code className="font-mono">http://localhost</code>.
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
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const unsaved = useUnsavedChanges({ what: "Add an endpoint" });
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const parsed = createWebhookEndpointRequest.safeParse({
      url: String(form.get("url") ?? ""),
      events: form.getAll("events").map(String),
    });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
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
        const body = (error as { body?: { error?: { message?: string } } }).body;
        if (body?.error?.message) setErrors({ url: body.error.message });
        else failed("Could not add the endpoint")(error);
      },
    });
  };
  return (
    <section className="rounded-xl border border-border bg-card p-4 sm:p-6">
      <h2 className="font-semibold text-xl">Add an endpoint</h2>
      <p className="mt-1 text-muted-foreground text-sm">
        CPXTB Pay sends a signed POST request to this URL when one of the chosen events happens.
      </p>
      <form ref={unsaved.formRef} onSubmit={submit} noValidate className="mt-4 flex flex-col gap-4">
        {unsaved.dialog}
        <Field
          name="url"
          label="Endpoint URL"
          type="url"
          inputMode="url"
          placeholder="https://shop.example/webhooks/cpxtb"
          required
          error={errors.url}
          hint={
            localTargets
              ? "An https:// address on the public internet, or on this development install http://127.0.0.1 or http://localhost."
              : "An https:// address on the public internet."
          }
        />
        {/* Every payment event at first: a merchant unticks what it does not need. */}
        <EventCheckboxes name="events" selected={WEBHOOK_EVENTS} />
        {errors.events ? (
          <p className="font-medium text-destructive text-sm" role="alert">
            {errors.events}
          </p>
        ) : null}
        <Button type="submit" className="self-start" disabled={create.isPending}>
          {create.isPending ? <Spinner /> : <Plus aria-hidden="true" />} Add endpoint
        </Button>
      </form>
    </section>
  );
}

function DeliveryStatus({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.status === "delivered")
    return (
      <span className="inline-flex items-center gap-1.5 font-medium text-success">
        <CircleCheck className="size-4" aria-hidden="true" /> Delivered
      </span>
    );
  if (delivery.status === "failed")
    return (
      <span className="inline-flex items-center gap-1.5 font-medium text-destructive">
        <XCircle className="size-4" aria-hidden="true" /> Failed
      </span>
    );
  return (
    <span className="inline-flex items-center gap-1.5 font-medium text-warning-foreground dark:text-warning">
      <Clock className="size-4" aria-hidden="true" /> {delivery.attempts > 0 ? "Retrying" : "Sending"}
    </span>
  );
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
  if (deliveries.isPending) return <Spinner label="Loading deliveries" />;
  if (deliveries.isError)
    return (
      <p className="text-destructive text-sm" role="alert">
        The delivery log could not be loaded. {describeError(deliveries.error)}
      </p>
    );
  const items = deliveries.data.items;
  if (items.length === 0)
    return (
      <p className="text-muted-foreground text-sm">
        Nothing sent yet. Use "Send test event" to check that your server receives and verifies deliveries.
      </p>
    );
  return (
    <ul className="flex flex-col divide-y divide-border" aria-label="Deliveries">
      {items.map((d) => (
        <li key={d.id} className="flex flex-col gap-1 py-3 text-sm" data-testid="webhook-delivery">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <DeliveryStatus delivery={d} />
              <code className="text-xs">{d.eventType}</code>
            </span>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              disabled={replay.isPending}
              onClick={() =>
                replay.mutate(d.id, {
                  onSuccess: () => toast({ title: "Delivery queued again" }),
                  onError: failed("Could not replay the delivery"),
                })
              }
            >
              <RotateCcw aria-hidden="true" /> Replay
            </Button>
          </div>
          <p className="text-muted-foreground tabular-nums">
            <span title={formatDateTime(d.createdAt)}>{formatRelative(d.createdAt)}</span>
            {" · "}
            {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
            {d.lastStatusCode !== null ? ` · HTTP ${d.lastStatusCode}` : ""}
            {d.nextAttemptAt ? ` · next try ${new Date(d.nextAttemptAt).toLocaleTimeString()}` : ""}
          </p>
          {d.lastError ? <p className="text-destructive">{d.lastError}</p> : null}
          <details data-testid="delivery-payload">
            <summary className="min-h-11 cursor-pointer content-center text-muted-foreground">
              Payload sent
            </summary>
            <pre className="max-h-60 overflow-auto whitespace-pre-wrap break-all rounded-md bg-muted p-2 text-xs">
              {prettyJson(d.payload)}
            </pre>
          </details>
          {d.lastResponse ? (
            <details data-testid="delivery-response">
              <summary className="min-h-11 cursor-pointer content-center text-muted-foreground">
                Answer{d.lastStatusCode !== null ? ` (HTTP ${d.lastStatusCode})` : ""}
              </summary>
              <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-all rounded-md bg-muted p-2 text-xs">
                {d.lastResponse}
              </pre>
            </details>
          ) : null}
          <p className="break-all text-muted-foreground text-xs">webhook-id {d.messageId}</p>
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
  const saveEvents = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const events = new FormData(event.currentTarget).getAll("events").map(String) as WebhookEvent[];
    if (events.length === 0) {
      toast({ variant: "destructive", title: "Choose at least one event" });
      return;
    }
    update.mutate(
      { events },
      { onSuccess: () => setEditing(false), onError: failed("Could not save the events") },
    );
  };
  return (
    <li
      className="flex flex-col gap-4 rounded-xl border border-border bg-card p-4 sm:p-6"
      data-testid="webhook-endpoint"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <h3 className="break-all font-mono font-semibold text-sm sm:text-base">{endpoint.url}</h3>
          <p className="flex flex-wrap items-center gap-2 text-sm">
            {isLoopbackUrl(endpoint.url) ? (
              <span
                className="inline-flex items-center gap-1.5 rounded-full border border-border bg-muted px-2.5 py-0.5 font-medium text-xs"
                data-testid="development-only"
              >
                <FlaskConical className="size-3.5" aria-hidden="true" /> Development only
              </span>
            ) : null}
            {/* The switch says "Enabled"; only a turned-off endpoint says more (and why). */}
            {endpoint.enabled ? null : (
              <span className="inline-flex items-center gap-1.5 text-muted-foreground">
                <CircleAlert className="size-4" aria-hidden="true" /> Disabled
                {endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}
              </span>
            )}
            {endpoint.previousSecretExpiresAt ? (
              <span className="text-muted-foreground">
                · previous secret signs too until{" "}
                {new Date(endpoint.previousSecretExpiresAt).toLocaleString()}
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
                { onError: failed("Could not change the endpoint") },
              )
            }
          />
          Enabled
        </label>
      </div>

      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}

      {editing ? (
        <form onSubmit={saveEvents} className="flex flex-col gap-3">
          <EventCheckboxes name="events" selected={endpoint.events} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={update.isPending}>
              Save events
            </Button>
            <Button type="button" variant="outline" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-muted-foreground text-sm">Events:</span>
          {endpoint.events.map((e) => (
            <code key={e} className="rounded bg-muted px-2 py-1 text-xs">
              {e}
            </code>
          ))}
          <Button type="button" variant="link" size="sm" onClick={() => setEditing(true)}>
            Edit events
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
                toast({ title: "Test event queued", description: "It appears in the log below." }),
              onError: failed("Could not send a test event"),
            })
          }
        >
          <Send aria-hidden="true" /> Send test event
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={rotate.isPending}
          onClick={() => {
            if (!window.confirm("Create a new signing secret? The current one keeps working for 24 hours."))
              return;
            rotate.mutate(undefined, {
              onSuccess: (result) => setSecret(result.secret),
              onError: failed("Could not rotate the secret"),
            });
          }}
        >
          <RefreshCw aria-hidden="true" /> Rotate secret
        </Button>
        <Button
          type="button"
          variant="outline"
          className="text-destructive"
          disabled={remove.isPending}
          onClick={() => {
            if (!window.confirm(`Delete the endpoint ${endpoint.url}? Its delivery log goes with it.`))
              return;
            remove.mutate(undefined, { onError: failed("Could not delete the endpoint") });
          }}
        >
          <Trash2 aria-hidden="true" /> Delete
        </Button>
      </div>

      <section aria-label={`Delivery log of ${endpoint.url}`} className="flex flex-col gap-2">
        <h4 className="font-semibold">Delivery log</h4>
        <DeliveryLog endpointId={endpoint.id} />
      </section>
    </li>
  );
}

export function WebhooksView() {
  const endpoints = useWebhookEndpoints(true);
  const [created, setCreated] = React.useState<WebhookEndpointWithSecret | null>(null);
  return (
    <div className="flex flex-col gap-6">
      {created ? <SecretOnce secret={created.secret} onDone={() => setCreated(null)} /> : null}
      <AddEndpointForm onCreated={setCreated} localTargets={endpoints.data?.localTargets ?? false} />
      {endpoints.data ? <TestLocally localTargets={endpoints.data.localTargets} /> : null}
      <section className="flex flex-col gap-4" aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading" className="font-semibold text-xl">
          Endpoints
        </h2>
        {endpoints.isPending ? (
          <Spinner label="Loading endpoints" />
        ) : endpoints.isError ? (
          <p className="text-destructive" role="alert">
            Your endpoints could not be loaded. {describeError(endpoints.error)}
          </p>
        ) : endpoints.data.items.length === 0 ? (
          <div className="flex flex-col items-start gap-2 rounded-xl border border-border border-dashed p-4 sm:p-6">
            <Webhook className="size-6 text-muted-foreground" aria-hidden="true" />
            <p className="font-semibold">No endpoints yet</p>
            <p className="text-muted-foreground text-sm">
              Add your server's URL above to be told when payments complete, without watching the dashboard.
              See the integration guide for how to verify the signature.
            </p>
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
