import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT, type WebhookEvent } from "@common/webhooks.ts";
import { escapeHtml } from "../web/page-meta.ts";
import { EVENT_STATUS, exampleWebhookBody } from "./examples.ts";

/** When each event is sent (the reference's Webhooks table). */
const EVENT_WHEN: Record<WebhookEvent | typeof WEBHOOK_TEST_EVENT, string> = {
  "payment.created": "A payment was created (dashboard, counter, link or API).",
  "payment.processing": "A transfer for it was seen; it waits for its confirmations.",
  "payment.partial": "Less than the amount due arrived; the payer can still send the rest.",
  "payment.completed": "The full amount arrived, confirmed, before the payment expired.",
  "payment.expired": "It expired before the full amount arrived.",
  "payment.paid_late": "The full amount arrived after it expired: decide whether to fulfil the order.",
  "payment.invalid": "The transfer that paid it was undone on the chain (a reorganisation).",
  "payment.cancelled": "The business cancelled it before anything arrived.",
  "payment.refunded":
    "You sent tokens back, in part or in full: `refundStatus` is `partially_refunded` or `refunded`, `amountRefunded` the sum so far; `status` stays what was paid.",
  "webhook.test": "“Send test event” on the Webhooks page (every endpoint receives it).",
};

/**
 * Verifies a delivery in Node without a library. The test suite runs this very text against a signature made by
 * the server's signing code (server/test/api-docs.test.ts), so what the page shows is known to work.
 */
export const NODE_VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from "node:crypto";

/** True when the delivery was signed with \`secret\` ("whsec_...") and is at most 5 minutes old. */
export function verifyWebhook(secret, headers, rawBody) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  if (!id || !timestamp || !headers["webhook-signature"]) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key)
    .update(\`\${id}.\${timestamp}.\${rawBody}\`)
    .digest();
  return headers["webhook-signature"].split(" ").some((s) => {
    const [version, value = ""] = s.split(",");
    const sig = Buffer.from(value, "base64");
    return version === "v1" && sig.length === expected.length && timingSafeEqual(sig, expected);
  });
}

// Express: keep the raw body for the check, parse it afterwards.
// app.post("/webhooks/cpxtb", express.raw({ type: "application/json" }), (req, res) => {
//   if (!verifyWebhook(process.env.CPXTB_WEBHOOK_SECRET, req.headers, req.body)) return res.sendStatus(400);
//   const event = JSON.parse(req.body);
//   res.sendStatus(200); // then do the work
// });`;

/** The same check in Python 3 (standard library only), also run by the test suite when python3 is there. */
export const PYTHON_VERIFY_SNIPPET = `import base64, binascii, hashlib, hmac, time

def verify_webhook(secret, headers, raw_body):
    """True when the delivery was signed with secret ("whsec_...") and is at most 5 minutes old.

    headers: the request's headers (lower-case names); raw_body: the body's bytes exactly as received.
    """
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not msg_id or not timestamp or not signatures:
        return False
    if abs(time.time() - int(timestamp)) > 300:
        return False
    key = base64.b64decode(secret[len("whsec_"):])
    signed = f"{msg_id}.{timestamp}.".encode() + raw_body
    expected = hmac.new(key, signed, hashlib.sha256).digest()
    for signature in signatures.split(" "):
        version, _, value = signature.partition(",")
        try:
            if version == "v1" and hmac.compare_digest(base64.b64decode(value), expected):
                return True
        except (binascii.Error, ValueError):
            pass
    return False

# Flask:
# @app.post("/webhooks/cpxtb")
# def cpxtb_webhook():
#     headers = {k.lower(): v for k, v in request.headers.items()}
#     if not verify_webhook(os.environ["CPXTB_WEBHOOK_SECRET"], headers, request.get_data()):
#         abort(400)
#     event = request.get_json()
#     return "", 200  # then do the work`;

const json = (value: unknown) => escapeHtml(JSON.stringify(value, null, 2));
const prose = (text: string) =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_m, code: string) => `<code>${code}</code>`);

/** The reference page's "Webhooks" section. */
export function renderWebhooksSection(server: string): string {
  const events = [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT] as const;
  const rows = events
    .map(
      (event) =>
        `<tr><td><code>${escapeHtml(event)}</code></td><td>${prose(EVENT_WHEN[event])}</td><td>${
          event === WEBHOOK_TEST_EVENT ? "—" : `<code>${escapeHtml(EVENT_STATUS[event])}</code>`
        }</td></tr>`,
    )
    .join("");
  const payloads = events
    .map(
      (event) =>
        `<details id="event-${escapeHtml(event)}"><summary><code>${escapeHtml(event)}</code> payload</summary><pre tabindex="0"><code>${json(exampleWebhookBody(server, event))}</code></pre></details>`,
    )
    .join("\n");
  return `<h2 id="webhooks">Webhooks</h2>
<p>Add an endpoint on the <a href="/webhooks">Webhooks</a> page of the dashboard: the URL of your server and the events it wants (every payment event unless you narrow it). The page shows the endpoint's signing secret (<code>whsec_…</code>) once: keep it in your server's configuration. “Rotate secret” issues a new one; the old one keeps signing for 24 hours.</p>
<h3>Events</h3>
<div class="table" tabindex="0"><table><thead><tr><th>Event</th><th>Sent when</th><th><code>data.status</code></th></tr></thead><tbody>${rows}</tbody></table></div>
<p>Every delivery is a <code>POST</code> with a JSON body <code>{ "type", "timestamp", "data" }</code>. For a payment event <code>data</code> is the payment as <a href="#getPaymentsId"><code>GET /api/v1/payments/{id}</code></a> shows it (without its timeline and transfers), at the time of the event.</p>
${payloads}
<h3>Headers and signature</h3>
<p>Deliveries follow <a href="https://www.standardwebhooks.com">Standard Webhooks</a>:</p>
<div class="table" tabindex="0"><table><thead><tr><th>Header</th><th>Value</th></tr></thead><tbody>
<tr><td><code>webhook-id</code></td><td>The message id (<code>msg_…</code>), the same for every retry of this delivery: use it to ignore duplicates.</td></tr>
<tr><td><code>webhook-timestamp</code></td><td>Unix seconds of this attempt. Refuse deliveries more than 5 minutes away from your clock.</td></tr>
<tr><td><code>webhook-signature</code></td><td><code>v1,&lt;base64 signature&gt;</code>; two of them, space-separated, while a rotated secret still signs.</td></tr>
</tbody></table></div>
<p>The signature is the HMAC-SHA256 of <code>&lt;webhook-id&gt;.&lt;webhook-timestamp&gt;.&lt;raw body&gt;</code>, keyed with the base64-decoded part of the secret after <code>whsec_</code>, in base64. Use the body's bytes exactly as received (before parsing the JSON), and compare in constant time. Any Standard Webhooks library verifies it too.</p>
<h4>Node</h4>
<pre tabindex="0"><code id="verify-node">${escapeHtml(NODE_VERIFY_SNIPPET)}</code></pre>
<h4>Python</h4>
<pre tabindex="0"><code id="verify-python">${escapeHtml(PYTHON_VERIFY_SNIPPET)}</code></pre>
<h3>Answers and retries</h3>
<p>Answer any <code>2xx</code> within 15 seconds and do the work afterwards. Network errors, timeouts, <code>408</code>, <code>429</code> and <code>5xx</code> are retried (at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 24 h); another <code>4xx</code> is not; <code>410 Gone</code> turns the endpoint off. The Webhooks page lists every delivery with the payload sent, its attempts and the start of your answer, and replays one on demand.</p>
<p>On a development install, endpoints on this machine (<code>http://127.0.0.1:…</code>, <code>http://localhost:…</code>) are accepted, so you can try webhooks before deploying; a deployment sends only to public <code>https://</code> addresses.</p>`;
}
