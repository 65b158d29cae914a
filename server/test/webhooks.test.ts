import { WEBHOOK_EVENTS } from "@common/webhooks.ts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { testConfig } from "../src/config.ts";
import type { Database } from "../src/db/client.ts";
import { webhookEndpoints } from "../src/db/schema.ts";
import { embeddedIpv4, ipv6Groups, isPublicAddress, PRIVATE_TARGET } from "../src/modules/webhooks/ssrf.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp, createTestDatabase } from "./helpers.ts";
import {
  api,
  chainTools,
  createMerchant,
  createPayment,
  paymentTestConfig,
  type TestMerchant,
} from "./payment-helpers.ts";
import { type ReceivedWebhook, startReceiver, verifySignature } from "./webhook-receiver.ts";

const FAST = { retryDelaysMs: [0, 150, 150, 150], pollMs: 50 };
const CONFIRMATIONS = 2;

let chain: TestChain;
let app: App;
let tools: ReturnType<typeof chainTools>;
let merchant: TestMerchant;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

type Endpoint = { id: string; secret: string; url: string; events: string[]; enabled: boolean };

async function addEndpoint(target: App, cookie: string, url: string, events: string[] = [...WEBHOOK_EVENTS]) {
  const res = await api(target, cookie).post("/api/merchant/webhooks", { url, events });
  if (res.statusCode !== 201) throw new Error(`endpoint failed: ${res.statusCode} ${res.body}`);
  return res.json() as Endpoint;
}

async function deliveries(target: App, cookie: string, endpointId: string) {
  const res = await api(target, cookie).get(`/api/merchant/webhooks/${endpointId}/deliveries`);
  expect(res.statusCode).toBe(200);
  return res.json().items as {
    id: string;
    messageId: string;
    status: string;
    attempts: number;
    lastStatusCode: number | null;
    eventType: string;
  }[];
}

async function waitUntil<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every request to `path` carries a signature the receiver's own HMAC code accepts. */
function expectSigned(requests: ReceivedWebhook[], secret: string) {
  expect(requests.length).toBeGreaterThan(0);
  for (const r of requests) {
    expect(r.id).toMatch(/^msg_/);
    expect(r.timestamp).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(r.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifySignature(secret, r)).toBe(true);
  }
}

/** One event keeps one id across attempts; one id never carries two events. */
function expectOneIdPerEvent(requests: ReceivedWebhook[]) {
  const idsByBody = new Map<string, Set<string>>();
  const bodiesById = new Map<string, Set<string>>();
  for (const r of requests) {
    idsByBody.set(r.body, (idsByBody.get(r.body) ?? new Set()).add(r.id));
    bodiesById.set(r.id, (bodiesById.get(r.id) ?? new Set()).add(r.body));
  }
  for (const ids of idsByBody.values()) expect(ids.size).toBe(1);
  for (const bodies of bodiesById.values()) expect(bodies.size).toBe(1);
}

beforeAll(async () => {
  chain = await startTestChain();
  tools = chainTools(chain);
  receiver = await startReceiver();
  const connected = await connectChain(
    chainConfigFor(chain.url, chain.deployment, { confirmations: CONFIRMATIONS }),
  );
  app = await createTestApp(
    { ...paymentTestConfig(), webhooks: { allowPrivate: true } },
    { chain: connected, notifications: FAST },
  );
  app.notifications.start();
  merchant = await createMerchant(app);
  await app.payments.indexer!.runOnce();
});
afterAll(async () => {
  await receiver?.close();
  await chain?.stop();
});

describe("signed deliveries of payment events", () => {
  it("created, processing and completed reach the endpoint, each signed and in the documented body", async () => {
    const endpoint = await addEndpoint(app, merchant.cookie, `${receiver.url}/lifecycle`);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(endpoint.secret.slice(6), "base64")).toHaveLength(32);
    const payment = await createPayment(app, merchant.cookie, { orderId: "order-42" });
    const payer = await tools.payer();
    await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
    await app.payments.indexer!.runOnce();
    await tools.mine(CONFIRMATIONS - 1);
    await app.payments.indexer!.runOnce();
    await receiver.waitFor(() => receiver.at("/lifecycle").some((r) => r.json.type === "payment.completed"));
    const got = receiver.at("/lifecycle");
    expect(got.map((r) => r.json.type)).toEqual([
      "payment.created",
      "payment.processing",
      "payment.completed",
    ]);
    expectSigned(got, endpoint.secret);
    expectOneIdPerEvent(got);
    expect(new Set(got.map((r) => r.id)).size).toBe(3);
    const completed = got[2]!;
    expect(completed.headers["content-type"]).toBe("application/json");
    expect(completed.json.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(completed.json.data).toMatchObject({
      id: payment.id,
      reference: payment.reference,
      orderId: "order-42",
      status: "completed",
      amountReceivedBase: payment.amountDueBase,
    });
    expect(got[0]!.json.data).toMatchObject({ status: "pending" });
    const log = await waitUntil(
      () => deliveries(app, merchant.cookie, endpoint.id),
      (items) => items.length === 3 && items.every((d) => d.status === "delivered"),
    );
    expect(log.every((d) => d.attempts === 1 && d.lastStatusCode === 200)).toBe(true);
  });

  it("only the subscribed events are sent", async () => {
    const endpoint = await addEndpoint(app, merchant.cookie, `${receiver.url}/only-created`, [
      "payment.expired",
    ]);
    await createPayment(app, merchant.cookie);
    const test = await api(app, merchant.cookie).post(`/api/merchant/webhooks/${endpoint.id}/test`);
    expect(test.statusCode).toBe(201);
    await receiver.waitFor(() => receiver.at("/only-created").length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at("/only-created").map((r) => r.json.type)).toEqual(["webhook.test"]);
  });

  it("retries on 500 then succeeds, with the same webhook-id each time", async () => {
    receiver.script("/flaky", [500, 503]);
    const endpoint = await addEndpoint(app, merchant.cookie, `${receiver.url}/flaky`, ["payment.created"]);
    await createPayment(app, merchant.cookie);
    await receiver.waitFor(() => receiver.at("/flaky").length >= 3);
    const got = receiver.at("/flaky");
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    expectSigned(got, endpoint.secret);
    // The second and third attempts waited for the (test) backoff.
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(100);
    const [delivery] = await waitUntil(
      () => deliveries(app, merchant.cookie, endpoint.id),
      (items) => items[0]?.status === "delivered",
    );
    expect(delivery).toMatchObject({ attempts: 3, lastStatusCode: 200, messageId: got[0]!.id });
  });

  it("a 4xx other than 408/429 fails at once; the merchant replays it with the same id", async () => {
    receiver.script("/bad-request", [400]);
    const endpoint = await addEndpoint(app, merchant.cookie, `${receiver.url}/bad-request`);
    await api(app, merchant.cookie).post(`/api/merchant/webhooks/${endpoint.id}/test`);
    const [failed] = await waitUntil(
      () => deliveries(app, merchant.cookie, endpoint.id),
      (items) => items[0]?.status === "failed",
    );
    expect(failed).toMatchObject({ attempts: 1, lastStatusCode: 400 });
    const replay = await api(app, merchant.cookie).post(
      `/api/merchant/webhook-deliveries/${failed!.id}/replay`,
    );
    expect(replay.statusCode).toBe(200);
    await waitUntil(
      () => deliveries(app, merchant.cookie, endpoint.id),
      (items) => items[0]?.status === "delivered",
    );
    const got = receiver.at("/bad-request");
    expect(got).toHaveLength(2);
    expect(got[0]!.id).toBe(got[1]!.id);
  });

  it("an endpoint answering 410 is disabled and gets nothing more", async () => {
    receiver.script("/gone", [410]);
    const endpoint = await addEndpoint(app, merchant.cookie, `${receiver.url}/gone`, ["payment.created"]);
    await createPayment(app, merchant.cookie);
    await receiver.waitFor(() => receiver.at("/gone").length >= 1);
    const list = await waitUntil(
      async () => (await api(app, merchant.cookie).get("/api/merchant/webhooks")).json().items as Endpoint[],
      (items) => items.find((e) => e.id === endpoint.id)?.enabled === false,
    );
    expect(list.find((e) => e.id === endpoint.id)).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(/410/),
    });
    await createPayment(app, merchant.cookie);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(receiver.at("/gone")).toHaveLength(1);
    // A test event to it is refused with its reason (said in the developer's words, issue 37).
    const test = await api(app, merchant.cookie).post(`/api/merchant/webhooks/${endpoint.id}/test`);
    expect(test.statusCode).toBe(409);
    expect(test.json().error).toMatchObject({
      code: "CONFLICT",
      message: "Enable the endpoint before sending it a test event.",
      details: { reason: "endpoint_disabled" },
    });
  });

  it("a host that does not resolve is refused with its reason and the host", async () => {
    const res = await api(app, merchant.cookie).post("/api/merchant/webhooks", {
      url: "https://no-such-host.invalid/hook",
      events: ["payment.created"],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "The host no-such-host.invalid could not be resolved.",
      details: { field: "url", reason: "host_unresolved", host: "no-such-host.invalid" },
    });
  });

  it("rotating the secret signs with both during the overlap; the secret is in no later response", async () => {
    const endpoint = await addEndpoint(app, merchant.cookie, `${receiver.url}/rotate`);
    const rotated = await api(app, merchant.cookie).post(
      `/api/merchant/webhooks/${endpoint.id}/rotate-secret`,
    );
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json() as Endpoint & { previousSecretExpiresAt: string };
    expect(next.secret).not.toBe(endpoint.secret);
    expect(new Date(next.previousSecretExpiresAt).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    await api(app, merchant.cookie).post(`/api/merchant/webhooks/${endpoint.id}/test`);
    await receiver.waitFor(() => receiver.at("/rotate").length >= 1);
    const [got] = receiver.at("/rotate");
    expect(got!.signatures).toHaveLength(2);
    expect(verifySignature(endpoint.secret, { ...got!, signatures: [got!.signatures[1]!] })).toBe(true);
    expect(verifySignature(next.secret, { ...got!, signatures: [got!.signatures[0]!] })).toBe(true);

    const responses = [
      await api(app, merchant.cookie).get("/api/merchant/webhooks"),
      await api(app, merchant.cookie).patch(`/api/merchant/webhooks/${endpoint.id}`, {
        events: ["payment.completed"],
      }),
      await api(app, merchant.cookie).get(`/api/merchant/webhooks/${endpoint.id}/deliveries`),
      await api(app, merchant.cookie).post(`/api/merchant/webhooks/${endpoint.id}/test`),
    ];
    for (const res of responses) {
      expect(res.statusCode).toBeLessThan(300);
      expect(res.body).not.toContain(endpoint.secret.slice(6));
      expect(res.body).not.toContain(next.secret.slice(6));
      expect(res.body).not.toContain("whsec_");
    }
  });
});

describe("owner scoping", () => {
  it("merchant B cannot see, change, test or replay merchant A's endpoints and deliveries", async () => {
    const endpoint = await addEndpoint(app, merchant.cookie, `${receiver.url}/scoped`);
    await api(app, merchant.cookie).post(`/api/merchant/webhooks/${endpoint.id}/test`);
    const [delivery] = await waitUntil(
      () => deliveries(app, merchant.cookie, endpoint.id),
      (items) => items[0]?.status === "delivered",
    );
    const other = await createMerchant(app, { contactEmail: "b@example.com" });
    const b = api(app, other.cookie);
    const list = await b.get("/api/merchant/webhooks");
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([]);
    const refused = [
      await b.patch(`/api/merchant/webhooks/${endpoint.id}`, { enabled: false }),
      await b.post(`/api/merchant/webhooks/${endpoint.id}/rotate-secret`),
      await b.post(`/api/merchant/webhooks/${endpoint.id}/test`),
      await b.get(`/api/merchant/webhooks/${endpoint.id}/deliveries`),
      await b.post(`/api/merchant/webhook-deliveries/${delivery!.id}/replay`),
      await app.inject({
        method: "DELETE",
        url: `/api/merchant/webhooks/${endpoint.id}`,
        headers: { cookie: other.cookie },
      }),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
    }
    expect((await deliveries(app, merchant.cookie, endpoint.id)).length).toBe(1);
    const signedOut = await api(app).get("/api/merchant/webhooks");
    expect(signedOut.statusCode).toBe(401);
    const del = await app.inject({
      method: "DELETE",
      url: `/api/merchant/webhooks/${endpoint.id}`,
      headers: { cookie: merchant.cookie },
    });
    expect(del.statusCode).toBe(200);
  });
});

describe("durability", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  const config = () =>
    testConfig({ ...paymentTestConfig(), clientDist: "/nonexistent", webhooks: { allowPrivate: true } });

  it("a restart in the middle of the retries still delivers, under the same id", async () => {
    receiver.script("/restart", [500]);
    const first = await buildApp(config(), {
      database,
      notifications: { retryDelaysMs: [0, 1500], pollMs: 50 },
    });
    first.notifications.start();
    const owner = await createMerchant(first, { contactEmail: "restart@example.com" });
    const endpoint = await addEndpoint(first, owner.cookie, `${receiver.url}/restart`);
    await api(first, owner.cookie).post(`/api/merchant/webhooks/${endpoint.id}/test`);
    await receiver.waitFor(() => receiver.at("/restart").length >= 1);
    await waitUntil(
      () => deliveries(first, owner.cookie, endpoint.id),
      (items) => items[0]?.status === "pending" && items[0].attempts === 1,
    );
    await first.close();
    const second = await buildApp(config(), {
      database,
      notifications: { retryDelaysMs: [0, 1500], pollMs: 50 },
    });
    try {
      second.notifications.start();
      await receiver.waitFor(() => receiver.at("/restart").length >= 2, 10_000);
      const got = receiver.at("/restart");
      expect(got).toHaveLength(2);
      expect(got[1]!.id).toBe(got[0]!.id);
      expectSigned(got, endpoint.secret);
      const [delivery] = await waitUntil(
        () => deliveries(second, owner.cookie, endpoint.id),
        (items) => items[0]?.status === "delivered",
      );
      expect(delivery!.attempts).toBe(2);
    } finally {
      await second.close();
    }
  });

  it("an endpoint hears only the events from its creation on, even those dispatched after it", async () => {
    // No runner yet: the first payment's event waits in the outbox while the endpoint is added.
    const connected = await connectChain(
      chainConfigFor(chain.url, chain.deployment, { confirmations: CONFIRMATIONS }),
    );
    const idle = await buildApp(config(), { database, chain: connected, notifications: FAST });
    try {
      const owner = await createMerchant(idle, { contactEmail: "backlog@example.com" });
      const before = await createPayment(idle, owner.cookie, { orderId: "before" });
      const endpoint = await addEndpoint(idle, owner.cookie, `${receiver.url}/backlog`);
      const after = await createPayment(idle, owner.cookie, { orderId: "after" });
      idle.notifications.start();
      await receiver.waitFor(() => receiver.at("/backlog").length >= 1);
      await waitUntil(
        () => deliveries(idle, owner.cookie, endpoint.id),
        (items) => items.length >= 1 && items.every((d) => d.status === "delivered"),
      );
      expect(before.id).not.toBe(after.id);
      expect(receiver.at("/backlog").map((r) => r.json.data.orderId)).toEqual(["after"]);
      expect(await deliveries(idle, owner.cookie, endpoint.id)).toHaveLength(1);
    } finally {
      await idle.close();
    }
  });

  it("two runners at once deliver each event once", async () => {
    const a = await buildApp(config(), { database, notifications: FAST });
    const b = await buildApp(config(), { database, notifications: FAST });
    try {
      a.notifications.start();
      b.notifications.start();
      const owner = await createMerchant(a, { contactEmail: "two@example.com" });
      const endpoint = await addEndpoint(a, owner.cookie, `${receiver.url}/two-runners`);
      const sent = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api(i % 2 ? a : b, owner.cookie).post(`/api/merchant/webhooks/${endpoint.id}/test`),
        ),
      );
      expect(sent.every((r) => r.statusCode === 201)).toBe(true);
      await receiver.waitFor(() => receiver.at("/two-runners").length >= 20);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const got = receiver.at("/two-runners");
      expect(got).toHaveLength(20);
      expect(new Set(got.map((r) => r.id)).size).toBe(20);
      expectSigned(got, endpoint.secret);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("SSRF protection (WEBHOOKS_ALLOW_PRIVATE off)", () => {
  let strict: App;
  let owner: TestMerchant;
  beforeAll(async () => {
    // Production's rules: not even the development install's loopback targets.
    strict = await createTestApp(
      { ...paymentTestConfig(), webhooks: { allowPrivate: false, allowLoopback: false } },
      { notifications: FAST },
    );
    strict.notifications.start();
    owner = await createMerchant(strict, { contactEmail: "ssrf@example.com" });
  });

  it.each([
    "https://127.0.0.1/hook",
    "https://10.1.2.3/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://localhost/hook",
    "https://192.168.1.1/hook",
    "https://100.64.0.1/hook",
    "https://[fd00::1]/hook",
    "https://0.0.0.0/hook",
    // Private IPv4 addresses carried inside IPv6 forms (issue 33, item 10).
    "https://[64:ff9b::a9fe:a9fe]/latest/meta-data",
    "https://[64:ff9b:1::808:808]/hook",
    "https://[2002:a00:1::1]/hook",
    "https://[::127.0.0.1]/hook",
    "https://[::ffff:0:10.0.0.1]/hook",
    "https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook",
    // Hex and decimal IPv4 hosts, which the URL parser reads as IPv4.
    "https://0x7f.1/hook",
    "https://2130706433/hook",
    "http://93.184.215.14/hook",
    "https://user:pass@93.184.215.14/hook",
    "not a url",
  ])("refuses %s at save time with a clear 400", async (url) => {
    const res = await api(strict, owner.cookie).post("/api/merchant/webhooks", {
      url,
      events: ["payment.created"],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: "VALIDATION_ERROR" } });
    expect(res.json().error.message.length).toBeGreaterThan(10);
  });

  it("says the same thing whatever private address a host resolved to, naming none", async () => {
    const messages = new Set<string>();
    for (const url of [
      "https://localhost/hook",
      "https://127.0.0.1/hook",
      "https://[::1]/hook",
      "https://[64:ff9b::a00:1]/hook",
    ]) {
      const res = await api(strict, owner.cookie).post("/api/merchant/webhooks", {
        url,
        events: ["payment.created"],
      });
      expect(res.statusCode).toBe(400);
      const { message } = res.json().error as { message: string };
      expect(message).not.toMatch(/127\.0\.0\.1|::1|10\.0\.0\.1|64:ff9b/);
      messages.add(message);
    }
    expect([...messages]).toEqual([PRIVATE_TARGET]);
  });

  it("refuses again at send time, after DNS (an address that changed since it was saved)", async () => {
    const endpoint = await addEndpoint(strict, owner.cookie, "https://93.184.215.14/hook");
    // The stored target now resolves to loopback (as a rebinding DNS answer would): refused after DNS at send time.
    await strict.database.db
      .update(webhookEndpoints)
      .set({ url: `${receiver.url.replace("http://127.0.0.1", "https://localhost")}/rebound` })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await api(strict, owner.cookie).post(`/api/merchant/webhooks/${endpoint.id}/test`);
    const [delivery] = await waitUntil(
      async () =>
        (await api(strict, owner.cookie).get(`/api/merchant/webhooks/${endpoint.id}/deliveries`)).json()
          .items as {
          status: string;
          lastError: string | null;
          attempts: number;
        }[],
      (items) => items[0]?.status === "failed",
    );
    expect(delivery!.lastError).toMatch(/private or reserved address/);
    expect(delivery!.attempts).toBe(1);
    expect(receiver.at("/rebound")).toHaveLength(0);
  });
});

describe("address checks", () => {
  it.each([
    ["8.8.8.8", true],
    ["93.184.215.14", true],
    ["2606:4700:4700::1111", true],
    ["127.0.0.1", false],
    ["10.0.0.1", false],
    ["172.16.5.4", false],
    ["172.32.0.1", true],
    ["192.168.0.1", false],
    ["100.64.1.1", false],
    ["169.254.169.254", false],
    ["0.0.0.0", false],
    ["224.0.0.251", false],
    ["255.255.255.255", false],
    ["::", false],
    ["::1", false],
    ["fe80::1", false],
    ["fd00:ec2::254", false],
    ["ff02::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:7f00:1", false],
    ["::ffff:8.8.8.8", true],
    ["not-an-ip", false],
    // IPv4-mapped, in every spelling.
    ["::ffff:10.0.0.1", false],
    ["0:0:0:0:0:ffff:a00:1", false],
    ["::FFFF:A9FE:A9FE", false],
    ["0000:0000:0000:0000:0000:ffff:192.168.1.1", false],
    // IPv4-translated (SIIT, ::ffff:0:0:0/96).
    ["::ffff:0:127.0.0.1", false],
    ["::ffff:0:7f00:1", false],
    ["::ffff:0:808:808", true],
    // IPv4-compatible (::/96, deprecated).
    ["::127.0.0.1", false],
    ["::7f00:1", false],
    ["::a9fe:a9fe", false],
    ["::c0a8:101", false],
    ["::8.8.8.8", true],
    // NAT64 well-known prefix: the IPv4 address in the last 32 bits.
    ["64:ff9b::127.0.0.1", false],
    ["64:ff9b::a9fe:a9fe", false],
    ["64:ff9b::10.1.2.3", false],
    ["64:ff9b:0:0:0:0:c0a8:1", false],
    ["64:ff9b::808:808", true],
    ["64:ff9b::8.8.8.8", true],
    // NAT64 local-use prefix: refused whatever it carries.
    ["64:ff9b:1::808:808", false],
    ["64:ff9b:1:abcd::8.8.8.8", false],
    ["64:ff9b:1:ffff:ffff:ffff:ffff:ffff", false],
    // 6to4: the IPv4 address in bits 16-47.
    ["2002:7f00:1::", false],
    ["2002:a00:1::1", false],
    ["2002:a9fe:a9fe::1", false],
    ["2002:c0a8:101:1::1", false],
    ["2002:ac10:1::", false],
    ["2002:808:808::1", true],
    // Teredo: the server (bits 32-63) and the client (last 32 bits, inverted) must both be public.
    ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", true],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", false],
    ["2001:0:4136:e378:8000:63bf:f5ff:fffe", false],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", false],
    ["2001:0:a00:1:8000:63bf:3fff:fdd2", false],
    ["2001::7f00:1", false],
    // ISATAP interface identifiers, under any prefix.
    ["2606:4700::5efe:10.0.0.1", false],
    ["2606:4700::200:5efe:192.168.0.1", false],
    ["2606:4700::5efe:8.8.8.8", true],
    // Outside global unicast, and the reserved parts of it.
    ["fe80::1%eth0", false],
    ["fec0::1", false],
    ["fc00::1", false],
    ["100::1", false],
    ["100:0:0:1::1", false],
    ["2001:db8::1", false],
    ["2001:2::1", false],
    ["2001:10::1", false],
    ["2001:20::1", false],
    ["3fff::1", false],
    ["5f00::1", false],
    ["4000::1", false],
    ["::2", false],
    ["1::", false],
    ["2a00:1450:4001:82b::200e", true],
    // Other IPv4 reserved ranges.
    ["192.88.99.1", false],
    ["198.19.255.255", false],
    ["239.255.255.250", false],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it.each([
    ["::ffff:127.0.0.1", ["127.0.0.1"]],
    ["64:ff9b::a9fe:a9fe", ["169.254.169.254"]],
    ["2002:c0a8:101::1", ["192.168.1.1"]],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", ["65.54.227.120", "192.0.2.45"]],
    ["2606:4700::1111", null],
  ])("%s carries %j", (address, expected) => {
    expect(embeddedIpv4(ipv6Groups(address)!)).toEqual(expected);
  });

  it.each(["1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "::g", "1:2:3:4:5:6:7"])("%s is malformed", (text) => {
    expect(ipv6Groups(text)).toBeNull();
  });
});
