import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { rowsOf } from "../src/db/client.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import {
  api,
  chainTools,
  createMerchant,
  createPayment,
  getPayment,
  type PaymentJson,
  paymentTestConfig,
  proveWallet,
  type TestMerchant,
} from "./payment-helpers.ts";

/** What the merchant dashboard adds on top of the engine: editing, appearance, history search, verify by hash. */
let chain: TestChain;
let app: App;
let tools: ReturnType<typeof chainTools>;
let merchant: TestMerchant;

beforeAll(async () => {
  chain = await startTestChain();
  tools = chainTools(chain);
  const connected = await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations: 1 }));
  app = await createTestApp(paymentTestConfig(), { chain: connected });
  merchant = await createMerchant(app);
  await app.payments.indexer!.runOnce();
});
afterAll(async () => {
  await chain?.stop();
});

const ids = (res: { json: () => { items: PaymentJson[] } }) => res.json().items.map((p) => p.id);

/** The ids of `payments` (newest first) whose description, order id or reference holds `q`, in any case. */
const matching = (
  payments: { id: string; description?: string | null; orderId?: string | null; reference: string }[],
  q: string,
) =>
  payments
    .filter((p) =>
      [p.description, p.orderId, p.reference].some((f) => f?.toLowerCase().includes(q.toLowerCase())),
    )
    .map((p) => p.id);

describe("editing the business", () => {
  it("changes fields without a new proof while the address stays; a new address needs its own signature", async () => {
    const owner = await createMerchant(app);
    const as = api(app, owner.cookie);
    const edited = await as.patch("/api/merchant", {
      name: "Corner Coffee & Cake",
      description: "Coffee, cake, and a quiet corner.",
      walletAddress: owner.wallet.address,
    });
    expect(edited.statusCode, edited.body).toBe(400);
    const fields = await as.patch("/api/merchant", {
      name: "Corner Coffee & Cake",
      description: "Coffee, cake, and a quiet corner.",
      website: null,
    });
    expect(fields.statusCode, fields.body).toBe(200);
    expect(fields.json()).toMatchObject({
      name: "Corner Coffee & Cake",
      description: "Coffee, cake, and a quiet corner.",
      walletAddress: owner.wallet.address,
    });
    const next = privateKeyToAccount(generatePrivateKey());
    const moved = await as.patch("/api/merchant", {
      walletAddress: next.address,
      proof: await proveWallet(app, owner.cookie, next),
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().walletAddress).toBe(next.address);
    // Another user's PATCH touches only its own (absent) business.
    const stranger = await createMerchant(app);
    await api(app, stranger.cookie).patch("/api/merchant", { name: "Hijacked" });
    expect((await as.get("/api/merchant")).json().name).toBe("Corner Coffee & Cake");
  });
});

describe("pay page appearance", () => {
  it("stores brand colour and theme, validates them strictly, and shows them in the public view only", async () => {
    const owner = await createMerchant(app, {
      brandColor: "#1A7F5A",
      pageTheme: "light",
      website: "https://corner.example/",
    });
    const as = api(app, owner.cookie);
    expect((await as.get("/api/merchant")).json()).toMatchObject({
      brandColor: "#1a7f5a",
      pageTheme: "light",
    });
    const payment = await createPayment(app, owner.cookie);
    const pub = await api(app).get(`/api/payments/public/${payment.reference}`);
    expect(pub.json().merchant).toEqual({
      name: "Corner Coffee",
      logoUrl: null,
      website: "https://corner.example/",
      brandColor: "#1a7f5a",
      pageTheme: "light",
      // The pay pages' language (issue 37): null, the payer's browser's, until the business sets one.
      payLanguage: null,
    });
    for (const bad of [
      { brandColor: "red" },
      { brandColor: "#12345" },
      { brandColor: "#1234567" },
      { brandColor: "#12345g" },
      { brandColor: "url(javascript:alert(1))" },
      { brandColor: "#123456; background: red" },
      { pageTheme: "neon" },
      { pageTheme: "" },
    ]) {
      const res = await as.patch("/api/merchant", bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
    const changed = await as.patch("/api/merchant", { brandColor: null, pageTheme: "dark" });
    expect(changed.json()).toMatchObject({ brandColor: null, pageTheme: "dark" });
    expect((await api(app).get(`/api/payments/public/${payment.reference}`)).json().merchant).toMatchObject({
      brandColor: null,
      pageTheme: "dark",
    });
    // A merchant registered without appearance gets the defaults.
    expect((await api(app, merchant.cookie).get("/api/merchant")).json()).toMatchObject({
      brandColor: null,
      pageTheme: "auto",
    });
  });
});

describe("payment history", () => {
  it("searches description, order id and reference, with the status filter and pagination, owner only", async () => {
    const owner = await createMerchant(app);
    const latte = await createPayment(app, owner.cookie, { description: "Oat latte", orderId: "ORD-100" });
    const cake = await createPayment(app, owner.cookie, { description: "Carrot cake", orderId: "ORD-101" });
    const tea = await createPayment(app, owner.cookie, { description: "100% green tea", orderId: "T_1" });
    const as = api(app, owner.cookie);
    expect(ids(await as.get("/api/merchant/payments?q=LATTE"))).toEqual([latte.id]);
    expect(ids(await as.get("/api/merchant/payments?q=ord-10"))).toEqual([cake.id, latte.id]);
    expect(ids(await as.get(`/api/merchant/payments?q=${cake.reference.slice(3, 15)}`))).toEqual([cake.id]);
    // LIKE wildcards are literal characters in a search.
    expect(ids(await as.get("/api/merchant/payments?q=100%25"))).toEqual([tea.id]);
    // A random reference can hold "t_1" too (1 in ~90 runs did): what a person would find is computed.
    expect(matching([tea, cake, latte], "T_1")).toContain(tea.id);
    expect(ids(await as.get("/api/merchant/payments?q=T_1"))).toEqual(matching([tea, cake, latte], "T_1"));
    expect(ids(await as.get("/api/merchant/payments?q=%25"))).toEqual([tea.id]);
    // Short terms too (a random reference may hold a 2-letter term as well: what a person would find is computed),
    // and a match never spans two fields (description "Oat latte", order id "ORD-100").
    const all = [tea, cake, latte];
    expect(matching(all, "T_")).toContain(tea.id);
    expect(ids(await as.get("/api/merchant/payments?q=T_"))).toEqual(matching(all, "T_"));
    expect(matching(all, "te")).toEqual(expect.arrayContaining([tea.id, latte.id]));
    expect(ids(await as.get("/api/merchant/payments?q=te"))).toEqual(matching(all, "te"));
    expect(ids(await as.get("/api/merchant/payments?q=latte%20ORD"))).toEqual([]);
    expect(ids(await as.get("/api/merchant/payments?q=latteORD"))).toEqual([]);
    const control = await as.get("/api/merchant/payments?q=latte%01ORD");
    expect(control.statusCode, control.body).toBe(400);
    expect(control.json().error.code).toBe("VALIDATION_ERROR");
    expect(ids(await as.get("/api/merchant/payments?q=ORD-&status=pending&limit=1"))).toEqual([cake.id]);
    const page2 = await as.get(
      `/api/merchant/payments?q=ORD-&limit=1&cursor=${(await as.get("/api/merchant/payments?q=ORD-&limit=1")).json().nextCursor}`,
    );
    expect(ids(page2)).toEqual([latte.id]);
    expect(page2.json().nextCursor).toBeNull();
    expect(ids(await as.get("/api/merchant/payments?q=ORD-&status=completed"))).toEqual([]);
    expect((await as.get(`/api/merchant/payments?q=${"x".repeat(101)}`)).statusCode).toBe(400);
    const nul = await as.get("/api/merchant/payments?q=a%00b");
    expect(nul.statusCode, nul.body).toBe(400);
    const nulName = await as.patch("/api/merchant", { name: "Bad\u0000Name", description: "x\u0000" });
    expect(nulName.statusCode, nulName.body).toBe(400);
    // The same search by another merchant finds none of them.
    expect(ids(await api(app, merchant.cookie).get("/api/merchant/payments?q=ORD-10"))).toEqual([]);
    expect(ids(await api(app, merchant.cookie).get(`/api/merchant/payments?q=${latte.reference}`))).toEqual(
      [],
    );
  });

  it("finds a 2-letter term wherever it stands, text outside ASCII, and regular-expression characters literally", async () => {
    const owner = await createMerchant(app);
    const atEnd = await createPayment(app, owner.cookie, { description: "Espresso QX" });
    const between = await createPayment(app, owner.cookie, { description: "éqxé crème brûlée" });
    const signs = await createPayment(app, owner.cookie, { description: "a.b (c++) [x] \\ {1} $5^2|?*" });
    const plain = await createPayment(app, owner.cookie, { description: "axb c (x) 1", orderId: "qz" });
    const as = api(app, owner.cookie);
    const search = async (q: string) =>
      ids(await as.get(`/api/merchant/payments?q=${encodeURIComponent(q)}`));
    // A random reference may hold a 2-letter term too: the expected rows are what a person would find.
    const all = [plain, signs, between, atEnd];
    for (const [q, meant] of [
      ["qx", [between.id, atEnd.id]],
      ["Qx", [between.id, atEnd.id]],
      ["qz", [plain.id]],
      ["qq", []],
    ] as const) {
      expect(matching(all, q)).toEqual(expect.arrayContaining([...meant]));
      expect(await search(q)).toEqual(matching(all, q));
    }
    expect(await search("éq")).toEqual([between.id]);
    expect(await search("crème")).toEqual([between.id]);
    expect(await search("brûlée")).toEqual([between.id]);
    expect(await search("û")).toEqual([between.id]);
    expect(await search("a.b")).toEqual([signs.id]);
    expect(await search("(c++)")).toEqual([signs.id]);
    expect(await search("[x]")).toEqual([signs.id]);
    expect(await search("\\")).toEqual([signs.id]);
    expect(await search("{1}")).toEqual([signs.id]);
    expect(await search("$5^2|?*")).toEqual([signs.id]);
    expect(await search(".")).toEqual([signs.id]);
    expect(await search("x")).toEqual([plain.id, signs.id, between.id, atEnd.id]);
    expect(await search("x) 1")).toEqual([plain.id]);
    expect(await search("b.")).toEqual([]);
  });
});

describe("verify by transaction hash (merchant)", () => {
  it("credits the transfer of a hash to the merchant's payment; failures are clear 4xx; never another's payment", async () => {
    const payment = await createPayment(app, merchant.cookie, { currency: "CPXTB", amount: "5" });
    const payer = await tools.payer();
    // Sent without the tag: the indexer cannot match it, so it lands in the inbox.
    const { hash } = await tools.pay(payer, merchant.wallet.address, 5n * 10n ** 18n);
    await app.payments.indexer!.runOnce();
    expect((await getPayment(app, merchant.cookie, payment.id)).status).toBe("pending");

    const other = await createMerchant(app);
    const foreign = await api(app, other.cookie).post(`/api/merchant/payments/${payment.id}/tx`, {
      txHash: hash,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toEqual({ code: "NOT_FOUND", message: "No such payment." });

    const as = api(app, merchant.cookie);
    const unknown = await as.post(`/api/merchant/payments/${payment.id}/tx`, {
      txHash: `0x${"cd".repeat(32)}`,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toMatch(/not in a block yet/);
    const malformed = await as.post(`/api/merchant/payments/${payment.id}/tx`, { txHash: "0xabc" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toMatch(/transaction hash/);

    const verified = await as.post(`/api/merchant/payments/${payment.id}/tx`, { txHash: hash });
    expect(verified.statusCode, verified.body).toBe(200);
    const detail = verified.json();
    expect(detail.status).toBe("partial");
    expect(detail.transfers.map((t: { txHash: string }) => t.txHash)).toEqual([hash]);
    expect(detail.timeline.at(-1)).toMatchObject({ from: "pending", to: "partial" });
    expect(detail.timeline.at(-1).cause).toContain(hash);

    const second = await createPayment(app, merchant.cookie, { currency: "CPXTB", amount: "5" });
    const taken = await as.post(`/api/merchant/payments/${second.id}/tx`, { txHash: hash });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toMatch(/already credited to another payment/);
    expect((await getPayment(app, merchant.cookie, second.id)).transfers).toEqual([]);
  });
});

describe("unmatched transfers (the inbox)", () => {
  type Item = { id: string; txHash: string; value: string; suggestions: { id: string; status: string }[] };
  const inboxOf = async (cookie: string) =>
    (await api(app, cookie).get("/api/merchant/inbox")).json().items as Item[];

  it("proposes the business's partly paid payment first, then the amounts nearest the transfer's", async () => {
    const owner = await createMerchant(app, { toleranceBps: 0 });
    const make = (amount: string) => createPayment(app, owner.cookie, { currency: "CPXTB", amount });
    const [far, below, above, partly] = [
      await make("50"),
      await make("7"),
      await make("10"),
      await make("30"),
    ];
    const payer = await tools.payer();
    // A part of it, told by its hash (an amount without the tag matches nothing by itself).
    const part = await tools.pay(payer, owner.wallet.address, BigInt(partly.amountDueBase) / 3n);
    await app.payments.indexer!.runOnce();
    const told = await api(app, owner.cookie).post(`/api/merchant/payments/${partly.id}/tx`, {
      txHash: part.hash,
    });
    expect(told.statusCode, told.body).toBe(200);
    expect((await getPayment(app, owner.cookie, partly.id)).status).toBe("partial");
    // Another business's open payment of the very same amount is never proposed.
    const other = await createMerchant(app);
    await createPayment(app, other.cookie, { currency: "CPXTB", amount: "9" });

    const { hash } = await tools.pay(payer, owner.wallet.address, 9_000_285n * 10n ** 12n);
    await app.payments.indexer!.runOnce();
    const item = (await inboxOf(owner.cookie)).find((t) => t.txHash === hash)!;
    expect(item.value).toBe("9.000285");
    expect(item.suggestions.map((s) => s.id)).toEqual([partly.id, above.id, below.id, far.id]);
    expect(item.suggestions[0]!.status).toBe("partial");
  });

  it("'not a payment' takes a transfer out of the inbox, keeps it, audits who did it; once, and only the business's own", async () => {
    const owner = await createMerchant(app);
    const payer = await tools.payer();
    const { hash } = await tools.pay(payer, owner.wallet.address, 7_000_001n * 10n ** 12n);
    await app.payments.indexer!.runOnce();
    const item = (await inboxOf(owner.cookie)).find((t) => t.txHash === hash)!;

    const stranger = await createMerchant(app);
    const foreign = await api(app, stranger.cookie).post(`/api/merchant/inbox/${item.id}/dismiss`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe("NOT_FOUND");

    const dismissed = await api(app, owner.cookie).post(`/api/merchant/inbox/${item.id}/dismiss`);
    expect(dismissed.statusCode, dismissed.body).toBe(204);
    expect((await inboxOf(owner.cookie)).some((t) => t.id === item.id)).toBe(false);
    const again = await api(app, owner.cookie).post(`/api/merchant/inbox/${item.id}/dismiss`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe("This transfer is not in your inbox (any more).");

    // Kept with the chain's transfers, unassigned.
    const { sql } = await import("drizzle-orm");
    const kept = await app.database.db.execute(
      sql`select payment_id, dismissed_at from chain_transfers where id = ${item.id}`,
    );
    const row = rowsOf<{ payment_id: string | null; dismissed_at: unknown }>(kept)[0]!;
    expect(row.payment_id).toBeNull();
    expect(row.dismissed_at).not.toBeNull();

    const events = (
      await api(app, owner.cookie).get("/api/merchant/audit-events?action=transfer.dismissed")
    ).json();
    expect(events.items).toHaveLength(1);
    expect(events.items[0]).toMatchObject({
      action: "transfer.dismissed",
      target: item.id,
      metadata: { txHash: hash, amount: "7.000001" },
    });
  });
});
