import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import { api, createClock, createMerchant, paymentTestConfig, type TestMerchant } from "./payment-helpers.ts";

let chain: TestChain;
let app: App;
let merchantA: TestMerchant;
let merchantB: TestMerchant;
/** The payments' clock: a test sets it back to create payments in the past. */
const clock = createClock();

type CreatedKey = { id: string; secret: string; prefix: string; scopes: string[]; name: string };
type ErrorJson = { error: { code: string; message: string } };

async function createKey(
  merchant: TestMerchant,
  scopes: string[],
  name = "Shop server",
): Promise<CreatedKey> {
  const res = await api(app, merchant.cookie).post("/api/merchant/api-keys", { name, scopes });
  if (res.statusCode !== 201) throw new Error(`key failed: ${res.statusCode} ${res.body}`);
  return res.json() as CreatedKey;
}

function v1(
  method: "GET" | "POST",
  url: string,
  options: { key?: string; payload?: unknown; headers?: Record<string, string> } = {},
) {
  return app.inject({
    method,
    url,
    payload: options.payload as object,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...options.headers,
    },
  });
}

const order = { currency: "USD", amount: "12.50", orderId: "order-1", description: "Two coffees" };

function expectError(res: { statusCode: number; json: () => unknown }, status: number, code?: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as ErrorJson;
  expect(typeof body.error.message).toBe("string");
  if (code) expect(body.error.code).toBe(code);
}

beforeAll(async () => {
  chain = await startTestChain();
  const connected = await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations: 1 }));
  // A deployment on a real chain: live keys (the test-install kind has its own test below).
  app = await createTestApp(
    { ...paymentTestConfig(), apiKeyKind: "live" },
    { chain: connected, payments: { now: clock.now } },
  );
  merchantA = await createMerchant(app);
  merchantB = await createMerchant(app, { name: "Book Nook" });
});
afterAll(async () => {
  await chain?.stop();
});

describe("API keys in the dashboard", () => {
  it("shows the secret once; the list carries neither the secret nor its hash; revoke removes it", async () => {
    const key = await createKey(merchantA, ["payments:write", "payments:read", "payments:read"]);
    expect(key.secret).toMatch(/^cpx_live_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(key.secret.slice(0, 13));
    expect(key.scopes).toEqual(["payments:read", "payments:write"]);

    const list = await api(app, merchantA.cookie).get("/api/merchant/api-keys");
    expect(list.statusCode).toBe(200);
    expect(list.json().kind).toBe("live");
    expect(list.body).not.toContain(key.secret);
    expect(list.body).not.toContain(key.secret.slice(13));
    expect(list.body).not.toMatch(/[0-9a-f]{64}/);
    expect(list.body).not.toMatch(/secret|hash/i);
    const listed = (list.json() as { items: { id: string; lastUsedAt: string | null }[] }).items;
    expect(listed.map((k) => k.id)).toContain(key.id);
    expect(listed.find((k) => k.id === key.id)!.lastUsedAt).toBeNull();

    // Using it records the last use, shown in the list.
    expect((await v1("GET", "/api/v1/payments", { key: key.secret })).statusCode).toBe(200);
    const after = (await api(app, merchantA.cookie).get("/api/merchant/api-keys")).json() as {
      items: { id: string; lastUsedAt: string | null }[];
    };
    expect(after.items.find((k) => k.id === key.id)!.lastUsedAt).not.toBeNull();

    // Another merchant cannot see or revoke it.
    const otherList = await api(app, merchantB.cookie).get("/api/merchant/api-keys");
    expect(otherList.body).not.toContain(key.id);
    const foreign = await app.inject({
      method: "DELETE",
      url: `/api/merchant/api-keys/${key.id}`,
      headers: { cookie: merchantB.cookie },
    });
    expectError(foreign, 404, "NOT_FOUND");
    expect((await v1("GET", "/api/v1/payments", { key: key.secret })).statusCode).toBe(200);

    const revoked = await app.inject({
      method: "DELETE",
      url: `/api/merchant/api-keys/${key.id}`,
      headers: { cookie: merchantA.cookie },
    });
    expect(revoked.statusCode).toBe(204);
    const gone = (await api(app, merchantA.cookie).get("/api/merchant/api-keys")).json() as {
      items: { id: string }[];
    };
    expect(gone.items.map((k) => k.id)).not.toContain(key.id);
    expectError(await v1("GET", "/api/v1/payments", { key: key.secret }), 401, "UNAUTHENTICATED");
    expectError(await v1("POST", "/api/v1/payments", { key: key.secret, payload: order }), 401);
  });

  it("needs a session and a business; validates the name and the scopes", async () => {
    expectError(await api(app).post("/api/merchant/api-keys", { name: "x", scopes: ["payments:read"] }), 401);
    expectError(await api(app).get("/api/merchant/api-keys"), 401);
    const post = (payload: unknown) => api(app, merchantA.cookie).post("/api/merchant/api-keys", payload);
    expectError(await post({ name: "", scopes: ["payments:read"] }), 400, "VALIDATION_ERROR");
    expectError(await post({ name: "x", scopes: [] }), 400, "VALIDATION_ERROR");
    expectError(await post({ name: "x", scopes: ["admin"] }), 400, "VALIDATION_ERROR");
    expectError(await post({ name: "x".repeat(61), scopes: ["payments:read"] }), 400);
    expectError(await post({ name: 5, scopes: "payments:read" }), 400);
  });
});

describe("/api/v1 authentication", () => {
  it("answers 401 for a missing, malformed, unknown key and for a cookie alone", async () => {
    expectError(await v1("GET", "/api/v1/payments"), 401, "UNAUTHENTICATED");
    expectError(await v1("POST", "/api/v1/payments", { payload: order }), 401, "UNAUTHENTICATED");
    expectError(await v1("GET", "/api/v1/payments", { key: "cpx_live_short" }), 401);
    expectError(
      await v1("GET", "/api/v1/payments", { headers: { authorization: "Basic dXNlcjpwYXNz" } }),
      401,
    );
    expectError(await v1("GET", "/api/v1/payments", { headers: { authorization: "Bearer" } }), 401);
    const unknown = `cpx_live_${"A".repeat(43)}`;
    expectError(await v1("GET", "/api/v1/payments", { key: unknown }), 401, "UNAUTHENTICATED");
    expectError(await v1("GET", `/api/v1/payments/pay_${"0".repeat(26)}`, { key: unknown }), 401);
    // The dashboard's session cookie (from our own origin) never authenticates the server API.
    const own = { cookie: merchantA.cookie, origin: "http://localhost:5000" };
    expectError(await v1("GET", "/api/v1/payments", { headers: own }), 401, "UNAUTHENTICATED");
    expectError(await v1("POST", "/api/v1/payments", { headers: own, payload: order }), 401);
  });

  it("enforces scopes: a read key cannot create (403), a write-only key cannot read (403)", async () => {
    const read = await createKey(merchantA, ["payments:read"]);
    const write = await createKey(merchantA, ["payments:write"]);
    expectError(await v1("POST", "/api/v1/payments", { key: read.secret, payload: order }), 403, "FORBIDDEN");
    const created = await v1("POST", "/api/v1/payments", { key: write.secret, payload: order });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: string }).id;
    expectError(await v1("GET", `/api/v1/payments/${id}`, { key: write.secret }), 403, "FORBIDDEN");
    expectError(await v1("GET", "/api/v1/payments", { key: write.secret }), 403, "FORBIDDEN");
    const read1 = await v1("GET", `/api/v1/payments/${id}`, { key: read.secret });
    expect(read1.statusCode).toBe(200);
    expect(read1.json()).toMatchObject({
      id,
      orderId: "order-1",
      status: "pending",
      timeline: [{ to: "pending" }],
    });
  });

  it("accepts a server-to-server request whatever its Origin (no cookie counts there)", async () => {
    const key = await createKey(merchantA, ["payments:write"]);
    const res = await v1("POST", "/api/v1/payments", {
      key: key.secret,
      payload: order,
      headers: { origin: "https://shop.example" },
    });
    expect(res.statusCode).toBe(201);
    // The dashboard's routes keep refusing foreign origins.
    const dashboard = await app.inject({
      method: "POST",
      url: "/api/merchant/payments",
      payload: order,
      headers: { cookie: merchantA.cookie, origin: "https://shop.example" },
    });
    expectError(dashboard, 403, "FORBIDDEN");
  });
});

describe("/api/v1/payments", () => {
  it("keeps each merchant's payments to its own keys", async () => {
    const keyA = await createKey(merchantA, ["payments:read", "payments:write"]);
    const keyB = await createKey(merchantB, ["payments:read", "payments:write"]);
    const ofA = (
      await v1("POST", "/api/v1/payments", { key: keyA.secret, payload: { ...order, orderId: "a-only" } })
    ).json() as { id: string };
    const ofB = (
      await v1("POST", "/api/v1/payments", { key: keyB.secret, payload: { ...order, orderId: "b-only" } })
    ).json() as { id: string };
    expectError(await v1("GET", `/api/v1/payments/${ofA.id}`, { key: keyB.secret }), 404, "NOT_FOUND");
    expectError(await v1("GET", `/api/v1/payments/${ofB.id}`, { key: keyA.secret }), 404, "NOT_FOUND");
    const listB = await v1("GET", "/api/v1/payments?limit=100", { key: keyB.secret });
    const idsB = (listB.json() as { items: { id: string }[] }).items.map((p) => p.id);
    expect(idsB).toContain(ofB.id);
    expect(idsB).not.toContain(ofA.id);
    expect(listB.body).not.toContain("a-only");
    // The dashboard sees the payment the API made.
    const dashboard = await api(app, merchantA.cookie).get(`/api/merchant/payments/${ofA.id}`);
    expect(dashboard.statusCode).toBe(200);
  });

  it("lists with status, from/to and cursor pagination", async () => {
    const key = await createKey(merchantB, ["payments:read", "payments:write"]);
    const ids: string[] = [];
    let before = "";
    for (let i = 0; i < 5; i++) {
      const res = await v1("POST", "/api/v1/payments", {
        key: key.secret,
        payload: { currency: "CPXTB", amount: `${100 + i}`, orderId: `page-${i}` },
      });
      const created = res.json() as { id: string; createdAt: string };
      before ||= created.createdAt;
      ids.push(created.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ limit: "2", from: before, status: "pending" });
      if (cursor) query.set("cursor", cursor);
      const res = await v1("GET", `/api/v1/payments?${query}`, { key: key.secret });
      expect(res.statusCode).toBe(200);
      const page = res.json() as { items: { id: string; status: string }[]; nextCursor: string | null };
      expect(page.items.length).toBeLessThanOrEqual(2);
      for (const p of page.items) expect(p.status).toBe("pending");
      seen.push(...page.items.map((p) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const future = new Date(Date.now() + 60_000).toISOString();
    const none = await v1("GET", `/api/v1/payments?from=${encodeURIComponent(future)}`, { key: key.secret });
    expect((none.json() as { items: unknown[] }).items).toEqual([]);
    const older = await v1("GET", `/api/v1/payments?to=${encodeURIComponent(before)}&status=completed`, {
      key: key.secret,
    });
    expect((older.json() as { items: unknown[] }).items).toEqual([]);
  });

  it("finds a payment created months ago by from/to, to the millisecond, and by the cursor's pages once", async () => {
    const shop = await createMerchant(app, { name: "Old Shop" });
    const key = await createKey(shop, ["payments:read", "payments:write"]);
    type Created = { id: string; createdAt: string };
    const create = async (orderId: string) =>
      (
        await v1("POST", "/api/v1/payments", {
          key: key.secret,
          payload: { currency: "CPXTB", amount: "7", orderId },
        })
      ).json() as Created;
    // The listing bounds the id by the window's times (decision 037): a payment's id carries its created_at, also
    // when the server's clock is not the machine's.
    const DAY = 86_400_000;
    clock.advance(-200 * DAY);
    const old: Created[] = [];
    try {
      old.push(await create("old-1"));
      clock.advance(60_000);
      old.push(await create("old-2"));
    } finally {
      clock.advance(200 * DAY - 60_000);
    }
    const recent = await create("recent");
    const at = Date.parse(old[0]!.createdAt);
    expect(Date.now() - at).toBeGreaterThan(199 * DAY);

    /** Every id the listing gives, a page of `limit` at a time along the cursor. */
    async function list(query: { from?: number; to?: number }, limit = 1) {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const params = new URLSearchParams({ limit: String(limit) });
        if (query.from !== undefined) params.set("from", new Date(query.from).toISOString());
        if (query.to !== undefined) params.set("to", new Date(query.to).toISOString());
        if (cursor) params.set("cursor", cursor);
        const res = await v1("GET", `/api/v1/payments?${params}`, { key: key.secret });
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json() as { items: { id: string }[]; nextCursor: string | null };
        ids.push(...page.items.map((p) => p.id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    }
    const [first, second] = [old[0]!.id, old[1]!.id];
    expect(await list({ from: at - DAY, to: at + DAY })).toEqual([second, first]);
    expect(await list({ from: at, to: at + 1 })).toEqual([first]);
    expect(await list({ from: at + 1, to: at + DAY })).toEqual([second]);
    expect(await list({ from: at - DAY, to: at })).toEqual([]);
    expect(await list({ to: at + 1 })).toEqual([first]);
    expect(await list({ from: at + 1 })).toEqual([recent.id, second]);
    expect(await list({})).toEqual([recent.id, second, first]);
  });

  it("Idempotency-Key: the same body returns the same payment, another body 409", async () => {
    const key = await createKey(merchantA, ["payments:read", "payments:write"]);
    const headers = { "idempotency-key": "order-2001" };
    const body = { ...order, orderId: "2001" };
    const first = await v1("POST", "/api/v1/payments", { key: key.secret, payload: body, headers });
    expect(first.statusCode).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await v1("POST", "/api/v1/payments", { key: key.secret, payload: body, headers });
    expect(again.statusCode).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect((again.json() as { id: string }).id).toBe((first.json() as { id: string }).id);
    // Another key of the same merchant shares the merchant's idempotency keys.
    const other = await createKey(merchantA, ["payments:write"]);
    const viaOther = await v1("POST", "/api/v1/payments", { key: other.secret, payload: body, headers });
    expect((viaOther.json() as { id: string }).id).toBe((first.json() as { id: string }).id);
    const changed = await v1("POST", "/api/v1/payments", {
      key: key.secret,
      payload: { ...body, amount: "13.00" },
      headers,
    });
    expectError(changed, 409, "CONFLICT");
    // The same key at another merchant is that merchant's own.
    const keyB = await createKey(merchantB, ["payments:write"]);
    const atB = await v1("POST", "/api/v1/payments", { key: keyB.secret, payload: body, headers });
    expect(atB.statusCode).toBe(201);
    expect((atB.json() as { id: string }).id).not.toBe((first.json() as { id: string }).id);
    // A failed create (invalid body) does not use up the key.
    const badHeaders = { "idempotency-key": "order-2002" };
    expectError(
      await v1("POST", "/api/v1/payments", {
        key: key.secret,
        payload: { ...body, successUrl: "ftp://x" },
        headers: badHeaders,
      }),
      400,
    );
    const fixed = await v1("POST", "/api/v1/payments", {
      key: key.secret,
      payload: body,
      headers: badHeaders,
    });
    expect(fixed.statusCode).toBe(201);
  });

  it("Idempotency-Key: concurrent identical requests create one payment", async () => {
    const key = await createKey(merchantA, ["payments:read", "payments:write"]);
    const body = { ...order, orderId: "race-1" };
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        v1("POST", "/api/v1/payments", {
          key: key.secret,
          payload: body,
          headers: { "idempotency-key": "race-1" },
        }),
      ),
    );
    for (const res of results) expect(res.statusCode).toBe(201);
    const ids = new Set(results.map((r) => (r.json() as { id: string }).id));
    expect(ids.size).toBe(1);
    const all = await api(app, merchantA.cookie).get("/api/merchant/payments?orderId=race-1");
    expect((all.json() as { items: unknown[] }).items).toHaveLength(1);
  });

  it("answers bad input with 4xx in the error shape", async () => {
    const key = await createKey(merchantA, ["payments:read", "payments:write"]);
    const post = (payload: string, headers: Record<string, string> = {}) =>
      app.inject({
        method: "POST",
        url: "/api/v1/payments",
        payload,
        headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json", ...headers },
      });
    expectError(await post("{not json"), 400);
    expectError(await post(JSON.stringify({ currency: "USD", amount: 12 })), 400, "VALIDATION_ERROR");
    expectError(await post(JSON.stringify({ currency: "EUR", amount: "1" })), 400, "VALIDATION_ERROR");
    expectError(await post(JSON.stringify({ currency: "USD", amount: "9".repeat(40) })), 400);
    expectError(await post(JSON.stringify({ ...order, expiresInMinutes: 1e12 })), 400);
    expectError(await post(JSON.stringify({ ...order, description: "x".repeat(10_000) })), 400);
    expectError(await post(JSON.stringify([order])), 400);
    expectError(await post(JSON.stringify({ ...order, orderId: "x".repeat(2_000_000) })), 413);
    expectError(await post("currency=USD", { "content-type": "application/x-www-form-urlencoded" }), 415);
    expectError(await post(JSON.stringify(order), { "idempotency-key": "x".repeat(300) }), 400);
    const get = (url: string) => v1("GET", url, { key: key.secret });
    expectError(await get("/api/v1/payments?limit=1000"), 400);
    expectError(await get("/api/v1/payments?status=paid"), 400);
    expectError(await get("/api/v1/payments?from=yesterday"), 400);
    expectError(await get("/api/v1/payments?cursor=zzz"), 400);
    // An id of a shape no payment has is as unknown as one none has.
    expectError(await get("/api/v1/payments/not-an-id"), 404, "NOT_FOUND");
    expectError(await get(`/api/v1/payments/pay_${"0".repeat(26)}`), 404, "NOT_FOUND");
    expectError(await app.inject({ method: "DELETE", url: "/api/v1/payments" }), 405);
  });

  it("never sends a key's secret or hash in any payment answer", async () => {
    const key = await createKey(merchantA, ["payments:read", "payments:write"]);
    const created = await v1("POST", "/api/v1/payments", { key: key.secret, payload: order });
    const id = (created.json() as { id: string }).id;
    for (const res of [
      created,
      await v1("GET", `/api/v1/payments/${id}`, { key: key.secret }),
      await v1("GET", "/api/v1/payments", { key: key.secret }),
      await api(app, merchantA.cookie).get("/api/merchant/api-keys"),
    ]) {
      expect(res.body).not.toContain(key.secret);
      expect(res.body).not.toContain(key.secret.slice(13));
    }
  });
});

describe("rate limit per API key", () => {
  let limited: App;
  beforeAll(async () => {
    const generous = paymentTestConfig().rateLimits;
    limited = await createTestApp({ rateLimits: { ...generous, api: { limit: 3, windowMs: 60_000 } } });
  });

  it("answers 429 with Retry-After in the error shape, per key and apart from the dashboard", async () => {
    const previous = app;
    app = limited;
    try {
      const merchant = await createMerchant(limited);
      const one = await createKey(merchant, ["payments:read"]);
      const two = await createKey(merchant, ["payments:read"]);
      for (let i = 0; i < 3; i++) {
        expect((await v1("GET", "/api/v1/payments", { key: one.secret })).statusCode).toBe(200);
      }
      const refused = await v1("GET", "/api/v1/payments", { key: one.secret });
      expectError(refused, 429, "RATE_LIMITED");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(refused.json()).not.toHaveProperty("challenge");
      // Another key has its own window; the browser's dashboard is not affected.
      expect((await v1("GET", "/api/v1/payments", { key: two.secret })).statusCode).toBe(200);
      expect((await api(limited, merchant.cookie).get("/api/merchant/api-keys")).statusCode).toBe(200);
    } finally {
      app = previous;
    }
  });
});

describe("logs", () => {
  it("never carry a key's secret, whatever the request", async () => {
    const lines: string[] = [];
    const logged = await createTestApp(
      { logLevel: "debug" },
      { logStream: { write: (line: string) => lines.push(line) } },
    );
    const previous = app;
    app = logged;
    try {
      const merchant = await createMerchant(logged);
      const key = await createKey(merchant, ["payments:read", "payments:write"]);
      await v1("GET", "/api/v1/payments", { key: key.secret });
      await v1("GET", `/api/v1/payments?cursor=${key.secret}`, { key: key.secret });
      // No chain in this app: the create fails on our side (503) and is logged with its request.
      await v1("POST", "/api/v1/payments", { key: key.secret, payload: order });
      await v1("POST", "/api/v1/payments", { key: key.secret, payload: "{bad json" });
      await v1("GET", "/api/v1/payments", { key: `${key.secret}x` });
      expect(lines.length).toBeGreaterThan(5);
      const log = lines.join("");
      expect(log).toContain("/api/v1/payments");
      expect(log).not.toContain(key.secret.slice(13));
    } finally {
      app = previous;
    }
  });
});

describe("OpenAPI", () => {
  it("serves a 3.1 document of /api/v1 made from the routes' schemas", async () => {
    const res = await app.inject({ url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { securitySchemes: Record<string, { type: string; scheme: string }>; schemas: object };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/api/v1/links",
      "/api/v1/links/{id}",
      "/api/v1/links/{id}/deactivate",
      "/api/v1/payments",
      "/api/v1/payments/{id}",
      "/api/v1/payments/{id}/cancel",
    ]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    const create = doc.paths["/api/v1/payments"]!.post!;
    expect(create.security).toEqual([{ apiKey: ["payments:write"] }]);
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ name: "Idempotency-Key", in: "header", required: false }),
    );
    expect(create.requestBody).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/CreatePaymentRequest" } } },
    });
    expect(Object.keys(create.responses as object)).toEqual(
      expect.arrayContaining(["201", "401", "403", "409"]),
    );
    expect(doc.paths["/api/v1/payments"]!.get!.security).toEqual([{ apiKey: ["payments:read"] }]);
    expect(doc.paths["/api/v1/payments/{id}"]!.get!.parameters).toContainEqual(
      expect.objectContaining({ name: "id", in: "path", required: true }),
    );
    expect(doc.components.schemas).toHaveProperty("Error");
    expect(doc.components.schemas).toHaveProperty("Payment");
  });

  it("serves a readable reference page without scripts", async () => {
    const res = await app.inject({ url: "/api/docs" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(res.body).not.toMatch(/<script/i);
    expect(res.body).toContain("/api/v1/payments/{id}");
    expect(res.body).toContain("Idempotency-Key");
    expect(res.body).toContain("payments:write");
  });
});

describe("test keys on a development install", () => {
  it("makes cpx_test_ keys there; each kind works only on the kind of deployment that made it", async () => {
    const connected = await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations: 1 }));
    const testApp = await createTestApp({ ...paymentTestConfig(), apiKeyKind: "test" }, { chain: connected });
    const merchant = await createMerchant(testApp, { name: "Corner Coffee" });
    const created = await api(testApp, merchant.cookie).post("/api/merchant/api-keys", {
      name: "Laptop",
      scopes: ["payments:read"],
    });
    expect(created.statusCode, created.body).toBe(201);
    const testKey = created.json() as CreatedKey;
    expect(testKey.secret).toMatch(/^cpx_test_[A-Za-z0-9_-]{43}$/);
    expect(testKey.prefix).toBe(testKey.secret.slice(0, 13));
    const list = await api(testApp, merchant.cookie).get("/api/merchant/api-keys");
    expect(list.json().kind).toBe("test");
    const onTest = (key: string) =>
      testApp.inject({ method: "GET", url: "/api/v1/payments", headers: { authorization: `Bearer ${key}` } });
    expect((await onTest(testKey.secret)).statusCode).toBe(200);

    // A test key on a live deployment, and a live key on the development install: refused, saying why.
    const onLive = await v1("GET", "/api/v1/payments", { key: testKey.secret });
    expectError(onLive, 401, "UNAUTHENTICATED");
    expect((onLive.json() as ErrorJson).error.message).toMatch(/test key .*development install/);
    const liveKey = await createKey(merchantA, ["payments:read"]);
    const liveOnTest = await onTest(liveKey.secret);
    expectError(liveOnTest, 401, "UNAUTHENTICATED");
    expect((liveOnTest.json() as ErrorJson).error.message).toMatch(/live key/);
    // The same secret with the other prefix is not a key either.
    expectError(await onTest(liveKey.secret.replace("cpx_live_", "cpx_test_")), 401, "UNAUTHENTICATED");
  });
});
