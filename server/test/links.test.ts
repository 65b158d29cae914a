import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import { api, chainTools, createMerchant, paymentTestConfig, type TestMerchant } from "./payment-helpers.ts";

let chain: TestChain;
let app: App;
let merchant: TestMerchant;
let other: TestMerchant;

type LinkJson = {
  id: string;
  slug: string;
  url: string;
  pricing: string;
  amount: string | null;
  minAmount: string | null;
  active: boolean;
  quantityLimit: number | null;
  stats: {
    requests: number;
    paid: number;
    paidTotal: string;
    paidUsd: string | null;
    remaining: number | null;
  };
};
type ErrorJson = { error: { code: string; message: string } };

function expectError(res: { statusCode: number; json: () => unknown }, status: number, code?: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as ErrorJson;
  expect(typeof body.error.message).toBe("string");
  if (code) expect(body.error.code).toBe(code);
  return body.error;
}

const coffee = { title: "Flat white", pricing: "fixed", currency: "USD", amount: "4.50" };

async function createLink(m: TestMerchant, body: Record<string, unknown> = coffee): Promise<LinkJson> {
  const res = await api(app, m.cookie).post("/api/merchant/links", body);
  if (res.statusCode !== 201) throw new Error(`link failed: ${res.statusCode} ${res.body}`);
  return res.json() as LinkJson;
}

const pay = (slug: string, body: Record<string, unknown> = {}) =>
  api(app).post(`/api/links/public/${slug}/pay`, body);

beforeAll(async () => {
  chain = await startTestChain();
  const connected = await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations: 1 }));
  app = await createTestApp(paymentTestConfig(), { chain: connected });
  merchant = await createMerchant(app, { toleranceBps: 0 });
  other = await createMerchant(app, { name: "Book Nook" });
  await app.payments.indexer!.runOnce();
});
afterAll(async () => {
  await chain?.stop();
});

describe("payment links in the dashboard", () => {
  it("creates, reads, lists, edits and switches a link off and on", async () => {
    const link = await createLink(merchant, { ...coffee, slug: "Flat-White", description: "Oat milk" });
    expect(link).toMatchObject({ slug: "flat-white", pricing: "fixed", amount: "4.50", active: true });
    expect(link.url).toMatch(/\/l\/flat-white$/);
    expect(link.stats).toEqual({ requests: 0, paid: 0, paidTotal: "0", paidUsd: null, remaining: null });

    const list = (await api(app, merchant.cookie).get("/api/merchant/links")).json() as { items: LinkJson[] };
    expect(list.items.map((l) => l.id)).toContain(link.id);
    // Another business sees neither the list entry nor the link.
    const theirs = (await api(app, other.cookie).get("/api/merchant/links")).json() as { items: LinkJson[] };
    expect(theirs.items.map((l) => l.id)).not.toContain(link.id);
    expectError(await api(app, other.cookie).get(`/api/merchant/links/${link.id}`), 404, "NOT_FOUND");
    expectError(await api(app, other.cookie).patch(`/api/merchant/links/${link.id}`, { active: false }), 404);

    const off = await api(app, merchant.cookie).patch(`/api/merchant/links/${link.id}`, { active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().active).toBe(false);
    const page = (await api(app).get("/api/links/public/flat-white")).json();
    expect(page).toMatchObject({ title: "Flat white", active: false, soldOut: false });
    expect(page.merchant.name).toBe("Corner Coffee");
    const refused = expectError(await pay("flat-white"), 409, "CONFLICT");
    expect(refused.message).toMatch(/switched off/);

    // Switching to "payer chooses" drops the fixed price; a minimum is required.
    expectError(
      await api(app, merchant.cookie).patch(`/api/merchant/links/${link.id}`, { pricing: "open" }),
      400,
      "VALIDATION_ERROR",
    );
    const open = await api(app, merchant.cookie).patch(`/api/merchant/links/${link.id}`, {
      pricing: "open",
      minAmount: "2.00",
      active: true,
    });
    expect(open.json()).toMatchObject({ pricing: "open", amount: null, minAmount: "2.00", active: true });
    // The products list (the point of sale's items) holds only switched-on fixed-price links.
    const products = (await api(app, merchant.cookie).get("/api/merchant/links?products=true")).json() as {
      items: LinkJson[];
    };
    expect(products.items.map((l) => l.id)).not.toContain(link.id);
  });

  it("refuses bad input with a 4xx and its reason, never a 500", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...coffee, title: "" }, /title/i],
      [{ ...coffee, amount: undefined }, /price/i],
      [{ ...coffee, amount: "4.505" }, /2 decimals/],
      [{ ...coffee, amount: "0" }, /at least 0.01/],
      [{ ...coffee, currency: "EUR" }, /USD or CPXTB/],
      [{ ...coffee, minAmount: "1" }, /no minimum/],
      [{ title: "Tip jar", pricing: "open", currency: "CPXTB" }, /least a payer/],
      [{ ...coffee, quantityLimit: 0 }, /quantity limit/],
      [{ ...coffee, slug: "a" }, /link address/],
      [{ ...coffee, slug: "no spaces here" }, /link address/],
      [{ ...coffee, imageUrl: "http://insecure.example/a.png" }, /https/],
      [{ ...coffee, imageUrl: "javascript:alert(1)" }, /https/],
    ];
    for (const [body, reason] of cases) {
      const res = await api(app, merchant.cookie).post("/api/merchant/links", body);
      const error = expectError(res, 400, "VALIDATION_ERROR");
      expect(`${JSON.stringify(res.json())}`).toMatch(reason);
      expect(error.code).toBe("VALIDATION_ERROR");
    }
    await createLink(merchant, { ...coffee, slug: "taken-slug" });
    expectError(
      await api(app, other.cookie).post("/api/merchant/links", { ...coffee, slug: "taken-slug" }),
      409,
    );
    expectError(await api(app).post("/api/merchant/links", coffee), 401);
    expectError(await api(app).get("/api/links/public/no-such-link"), 404, "NOT_FOUND");
    // An address no link can have is as unknown as one no link has (the class of every :id route).
    expectError(await api(app).get("/api/links/public/bad%20slug"), 404, "NOT_FOUND");
    expectError(await api(app, merchant.cookie).get("/api/merchant/links/lnk_nope"), 404, "NOT_FOUND");
    expectError(
      await api(app, merchant.cookie).get("/api/merchant/links/lnk_00000000000000000000000000"),
      404,
      "NOT_FOUND",
    );
    // An uploaded image is a small data URL, like the business's logo.
    const image = `data:image/png;base64,${Buffer.from("png").toString("base64")}`;
    expect((await createLink(merchant, { ...coffee, imageUrl: image })).slug).toMatch(/^[a-z0-9]{10}$/);
  });
});

describe("paying through a link", () => {
  it("each Pay makes a fresh payment request with its own unique amount, carrying the link's id", async () => {
    const link = await createLink(merchant, { ...coffee, title: "Croissant", amount: "3.00" });
    const made = [];
    for (let i = 0; i < 3; i++) {
      const res = await pay(link.slug);
      expect(res.statusCode).toBe(201);
      made.push(res.json() as { reference: string; paymentUrl: string });
    }
    expect(new Set(made.map((m) => m.reference)).size).toBe(3);
    expect(made[0]!.paymentUrl).toMatch(/\/pay\//);
    const payments = (
      await api(app, merchant.cookie).get(`/api/merchant/payments?linkId=${link.id}`)
    ).json() as {
      items: { id: string; linkId: string; amountDueBase: string; description: string; amountUsd: string }[];
    };
    expect(payments.items).toHaveLength(3);
    expect(payments.items.every((p) => p.linkId === link.id && p.description === "Croissant")).toBe(true);
    expect(payments.items.every((p) => p.amountUsd === "3.00")).toBe(true);
    expect(new Set(payments.items.map((p) => p.amountDueBase)).size).toBe(3);

    // Pay one on chain: the stats count it paid with what it received.
    const tools = chainTools(chain);
    const payer = await tools.payer();
    const first = payments.items[0]!;
    const detail = (await api(app, merchant.cookie).get(`/api/merchant/payments/${first.id}`)).json();
    await tools.pay(payer, detail.receivingAddress, first.amountDueBase);
    await expect
      .poll(
        async () => {
          await app.payments.indexer!.runOnce();
          return (await api(app, merchant.cookie).get(`/api/merchant/payments/${first.id}`)).json().status;
        },
        { timeout: 30_000 },
      )
      .toBe("completed");
    const stats = ((await api(app, merchant.cookie).get(`/api/merchant/links/${link.id}`)).json() as LinkJson)
      .stats;
    expect(stats).toMatchObject({ requests: 3, paid: 1, paidUsd: "3.00" });
    expect(stats.paidTotal).toBe(detail.amountDue);

    // Reports and the CSV filter by link and name it.
    const today = new Date().toISOString().slice(0, 10);
    const range = `from=${today}&to=${today}&tz=UTC`;
    const summary = (
      await api(app, merchant.cookie).get(`/api/merchant/reports/summary?${range}&linkId=${link.id}`)
    ).json();
    expect(summary.payments).toBe(3);
    expect(summary.revenue).toMatchObject({ count: 1, usd: "3.00" });
    const csv = (
      await api(app, merchant.cookie).get(`/api/merchant/reports/payments.csv?${range}&linkId=${link.id}`)
    ).body;
    const lines = csv.trim().split("\r\n");
    expect(lines).toHaveLength(4); // header and the link's three requests
    expect(lines[0]).toContain("link_id");
    expect(lines.slice(1).every((l) => l.endsWith(link.id))).toBe(true);
  });

  it("a payer-chooses link takes the payer's amount and refuses below the minimum with a clear 400", async () => {
    const link = await createLink(merchant, {
      title: "Tip jar",
      pricing: "open",
      currency: "USD",
      minAmount: "2.00",
    });
    const low = expectError(await pay(link.slug, { amount: "1.99" }), 400, "VALIDATION_ERROR");
    expect(low.message).toBe("The least you can pay here is 2.00 USD.");
    expect(expectError(await pay(link.slug, {}), 400).message).toMatch(/Enter the amount/);
    expect(expectError(await pay(link.slug, { amount: "abc" }), 400).message).toMatch(/USD amount/);
    const ok = await pay(link.slug, { amount: "2.50" });
    expect(ok.statusCode).toBe(201);
    const { items } = (
      await api(app, merchant.cookie).get(`/api/merchant/payments?linkId=${link.id}`)
    ).json();
    expect(items).toHaveLength(1);
    expect(items[0].amountUsd).toBe("2.50");
  });

  it("never oversells a quantity limit, whatever the number of parallel buyers", async () => {
    const link = await createLink(merchant, { ...coffee, title: "Last loaves", quantityLimit: 3 });
    const results = await Promise.all(Array.from({ length: 12 }, () => pay(link.slug)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    for (const r of results.filter((x) => x.statusCode === 409))
      expect(r.json().error.message).toMatch(/Sold out/);
    const { items } = (
      await api(app, merchant.cookie).get(`/api/merchant/payments?linkId=${link.id}`)
    ).json();
    expect(items).toHaveLength(3);
    const read = (await api(app, merchant.cookie).get(`/api/merchant/links/${link.id}`)).json() as LinkJson;
    expect(read.stats).toMatchObject({ requests: 3, remaining: 0 });
    expect((await api(app).get(`/api/links/public/${link.slug}`)).json().soldOut).toBe(true);
    // Raising the limit sells again.
    await api(app, merchant.cookie).patch(`/api/merchant/links/${link.id}`, { quantityLimit: 4 });
    expect((await pay(link.slug)).statusCode).toBe(201);
    expectError(await pay(link.slug), 409, "CONFLICT");
  });
});

describe("the audit log", () => {
  type Entry = {
    action: string;
    actor: string | null;
    target: string | null;
    metadata: Record<string, unknown>;
  };
  const linkEntries = async (m: TestMerchant, id: string) =>
    ((await api(app, m.cookie).get("/api/merchant/audit-events?limit=100")).json().items as Entry[])
      .filter((e) => e.target === id)
      .reverse();

  it("records a link's creation, changes, and switching off and on, like other merchant changes", async () => {
    const link = await createLink(merchant, { ...coffee, title: "Audited latte" });
    const patch = (body: Record<string, unknown>) =>
      api(app, merchant.cookie).patch(`/api/merchant/links/${link.id}`, body);
    expect((await patch({ title: "Audited oat latte", amount: "4.80" })).statusCode).toBe(200);
    expect((await patch({ active: false })).statusCode).toBe(200);
    // Switching off what is off changes nothing: no entry.
    expect((await patch({ active: false })).statusCode).toBe(200);
    expect((await patch({ active: true })).statusCode).toBe(200);
    const entries = await linkEntries(merchant, link.id);
    expect(entries.map((e) => e.action)).toEqual([
      "link.created",
      "link.updated",
      "link.switched_off",
      "link.switched_on",
    ]);
    expect(entries[0]!.metadata).toMatchObject({ slug: link.slug, title: "Audited latte", pricing: "fixed" });
    expect(entries[1]!.metadata).toEqual({ fields: ["title", "amount"] });
    expect(entries.every((e) => e.actor !== null)).toBe(true);
    // Another business's log does not show them.
    expect(await linkEntries(other, link.id)).toEqual([]);
    // A refused change records nothing.
    expect((await patch({ amount: "-1" })).statusCode).toBe(400);
    expect(await linkEntries(merchant, link.id)).toHaveLength(4);
  });
});

describe("/api/v1/links", () => {
  async function key(m: TestMerchant, scopes: string[]) {
    const res = await api(app, m.cookie).post("/api/merchant/api-keys", { name: "Shop", scopes });
    return (res.json() as { secret: string }).secret;
  }
  const v1 = (method: "GET" | "POST" | "PATCH", url: string, secret?: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      payload: payload as object,
      headers: secret ? { authorization: `Bearer ${secret}` } : {},
    });

  it("creates, lists, reads, updates and switches off with the payments scopes", async () => {
    const write = await key(merchant, ["payments:read", "payments:write"]);
    const read = await key(merchant, ["payments:read"]);
    const created = await v1("POST", "/api/v1/links", write, { ...coffee, title: "API espresso" });
    expect(created.statusCode).toBe(201);
    const link = created.json() as LinkJson;
    expect((await v1("GET", `/api/v1/links/${link.id}`, read)).json()).toMatchObject({
      title: "API espresso",
    });
    expect(((await v1("GET", "/api/v1/links", read)).json() as { items: LinkJson[] }).items[0]!.id).toBe(
      link.id,
    );
    const patched = await v1("PATCH", `/api/v1/links/${link.id}`, write, { amount: "5.00" });
    expect(patched.json()).toMatchObject({ amount: "5.00" });
    // The link's payments carry its id in the API.
    expect((await pay(link.slug)).statusCode).toBe(201);
    const payments = (await v1("GET", `/api/v1/payments?linkId=${link.id}`, read)).json();
    expect(payments.items).toHaveLength(1);
    expect(payments.items[0].linkId).toBe(link.id);
    const off = await v1("POST", `/api/v1/links/${link.id}/deactivate`, write);
    expect(off.statusCode).toBe(200);
    expect(off.json().active).toBe(false);

    // Scopes: reading needs payments:read, changing needs payments:write; no key is 401.
    expectError(await v1("POST", "/api/v1/links", read, coffee), 403, "FORBIDDEN");
    expectError(await v1("PATCH", `/api/v1/links/${link.id}`, read, { active: true }), 403);
    expectError(await v1("POST", `/api/v1/links/${link.id}/deactivate`, read), 403);
    expectError(await v1("GET", "/api/v1/links"), 401);
    // Validation and another merchant's key.
    expectError(
      await v1("POST", "/api/v1/links", write, { ...coffee, amount: "-1" }),
      400,
      "VALIDATION_ERROR",
    );
    const theirs = await key(other, ["payments:read", "payments:write"]);
    expectError(await v1("GET", `/api/v1/links/${link.id}`, theirs), 404);
    // An id no link has, of the right shape or not: 404, as every :id route answers.
    expectError(await v1("GET", "/api/v1/links/lnk_00000000000000000000000000", read), 404, "NOT_FOUND");
    expectError(await v1("GET", "/api/v1/links/nope", read), 404, "NOT_FOUND");
    expectError(await v1("GET", "/api/v1/payments/pay_nope", read), 404, "NOT_FOUND");
    // Changes made with a key are in the audit log too, naming the key (no member acted).
    const logged = (
      (await api(app, merchant.cookie).get("/api/merchant/audit-events?limit=100")).json().items as {
        action: string;
        target: string;
        actor: string | null;
        metadata: Record<string, unknown>;
      }[]
    ).filter((e) => e.target === link.id);
    expect(logged.map((e) => e.action).reverse()).toEqual([
      "link.created",
      "link.updated",
      "link.switched_off",
    ]);
    expect(logged.every((e) => e.actor === null && typeof e.metadata.apiKey === "string")).toBe(true);
    expectError(await v1("PATCH", `/api/v1/links/${link.id}`, theirs, { title: "Mine now" }), 404);
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v1/links", "/api/v1/links/{id}", "/api/v1/links/{id}/deactivate"]),
    );
    expect(Object.keys(doc.paths["/api/v1/links/{id}"])).toEqual(expect.arrayContaining(["get", "patch"]));
  });
});
