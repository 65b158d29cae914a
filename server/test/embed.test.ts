import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { normalizeEmbedOrigin } from "@common/embed.ts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { loadConfig } from "../src/config.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import {
  api,
  createMerchant,
  createPayment,
  paymentTestConfig,
  signUp,
  type TestMerchant,
} from "./payment-helpers.ts";

// A minimal built client (index.html) with the pay button's script beside it, as `vite build` leaves them.
const root = mkdtempSync(join(tmpdir(), "cpxtb-embed-"));
const clientDist = join(root, "client");
mkdirSync(clientDist);
writeFileSync(
  join(clientDist, "index.html"),
  `<!doctype html><html><head><title>CPXTB Pay</title></head><body><div id="root"></div></body></html>`,
);
mkdirSync(join(root, "embed"));
const SCRIPT = `(()=>{/* the pay button */window.CpxtbPay={version:1}})();\n`.repeat(20);
writeFileSync(join(root, "embed", "embed.js"), SCRIPT);

const SHOP = "https://shop.example";
let chain: TestChain;
let app: App;
let owner: TestMerchant;
let other: TestMerchant;
let reference: string;
let otherReference: string;

beforeAll(async () => {
  chain = await startTestChain();
  const connected = await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations: 1 }));
  // A production server (https): http://localhost origins are refused.
  app = await createTestApp(
    {
      ...paymentTestConfig(),
      clientDist,
      publicUrl: "https://pay.example.com",
      embed: { allowLoopbackHttp: false },
    },
    { chain: connected },
  );
  owner = await createMerchant(app);
  other = await createMerchant(app, { name: "Other Shop" });
  await app.payments.indexer!.runOnce();
  reference = (await createPayment(app, owner.cookie)).reference;
  otherReference = (await createPayment(app, other.cookie)).reference;
});
afterAll(async () => {
  await chain?.stop();
});

const put = (cookie: string | undefined, origins: unknown) =>
  app.inject({
    method: "PUT",
    url: "/api/merchant/embed/origins",
    payload: { origins } as object,
    headers: cookie ? { cookie } : {},
  });

/** A member of the owner's business with `role`, added as an accepted invitation leaves it. */
async function member(role: "admin" | "staff") {
  const person = await signUp(app);
  const me = (await api(app, person.cookie).get("/api/user")).json() as { id: string };
  await app.database.db.execute(
    sql`insert into business_members (merchant_id, user_id, role) values (${owner.id}, ${me.id}, ${role})`,
  );
  await app.database.db.execute(sql`update users set active_merchant_id = ${owner.id} where id = ${me.id}`);
  return person.cookie;
}

const frameAncestors = (headers: Record<string, unknown>) =>
  /frame-ancestors ([^;]*)/.exec(String(headers["content-security-policy"]))?.[1];

describe("allowed origins (settings)", () => {
  it("are stored normalized, without duplicates, and audited; the read says http://localhost is refused here", async () => {
    const empty = await api(app, owner.cookie).get("/api/merchant/embed");
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ origins: [], loopbackHttpAllowed: false });

    const saved = await put(owner.cookie, [
      " HTTPS://Shop.Example:443/ ",
      "https://shop.example",
      "https://checkout.shop.example:8443",
      "https://xn--bcher-kva.example",
    ]);
    expect(saved.statusCode).toBe(200);
    const origins = [SHOP, "https://checkout.shop.example:8443", "https://xn--bcher-kva.example"];
    expect(saved.json()).toEqual({ origins, loopbackHttpAllowed: false });
    expect((await api(app, owner.cookie).get("/api/merchant/embed")).json()).toEqual({
      origins,
      loopbackHttpAllowed: false,
    });
    const audit = (await app.database.db.execute(
      sql`select metadata from audit_events where business_id = ${owner.id} and action = 'merchant.embed_origins_changed'`,
    )) as unknown as { rows: { metadata: { to: string[] } }[] } | { metadata: { to: string[] } }[];
    const rows = Array.isArray(audit) ? audit : audit.rows;
    expect(rows.map((r) => r.metadata.to)).toEqual([origins]);
  });

  it("refuses what is not an https origin with a 400 naming it, and stores nothing", async () => {
    const before = (await api(app, owner.cookie).get("/api/merchant/embed")).json();
    for (const bad of [
      "http://shop.example",
      "http://localhost:3000",
      "http://127.0.0.1:5314",
      "https://shop.example/checkout",
      "https://shop.example?x=1",
      "https://*.shop.example",
      "https://user:pw@shop.example",
      "javascript:alert(1)",
      "shop.example",
      "https://shop.example; script-src *",
      "https://shop example",
      "'self'",
      "*",
    ]) {
      const res = await put(owner.cookie, [SHOP, bad]);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code, bad).toBe("VALIDATION_ERROR");
      expect(res.json().error.message, bad).toMatch(/^Website 2, .*\.$/);
      expect(res.json().error.details, bad).toEqual({ index: 1 });
    }
    for (const body of [
      Array.from({ length: 21 }, (_, i) => `https://s${i}.example`),
      "https://shop.example",
      [42],
      [""],
    ]) {
      const res = await put(owner.cookie, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    expect((await api(app, owner.cookie).get("/api/merchant/embed")).json()).toEqual(before);
  });

  it("accepts http://localhost and http://127.0.0.1 only on a development server", () => {
    expect(normalizeEmbedOrigin("http://localhost:3000/", true)).toEqual({ origin: "http://localhost:3000" });
    expect(normalizeEmbedOrigin("http://127.0.0.1:5314", true)).toEqual({ origin: "http://127.0.0.1:5314" });
    expect(normalizeEmbedOrigin("http://localhost:3000", false)).toHaveProperty("problem");
    expect(normalizeEmbedOrigin("http://192.168.1.2", true)).toHaveProperty("problem");
    expect(normalizeEmbedOrigin("http://shop.example", true)).toHaveProperty("problem");
    const production = { NODE_ENV: "production", PUBLIC_URL: "https://pay.example.com", HOST: "0.0.0.0" };
    expect(loadConfig({ ...production, RPC_URL: "" }).embed.allowLoopbackHttp).toBe(false);
    expect(loadConfig({ NODE_ENV: "development" }).embed.allowLoopbackHttp).toBe(true);
    // `npm start` on a machine of one's own (an http loopback site), as the e2e server runs.
    const local = { NODE_ENV: "production", PUBLIC_URL: "http://127.0.0.1:5304", HOST: "127.0.0.1" };
    expect(loadConfig(local).embed.allowLoopbackHttp).toBe(true);
  });

  it("are the owner's and admins': staff get 403, signed out 401", async () => {
    const admin = await member("admin");
    const staff = await member("staff");
    expect((await api(app, admin).get("/api/merchant/embed")).statusCode).toBe(200);
    expect((await put(staff, [SHOP])).statusCode).toBe(403);
    expect((await api(app, staff).get("/api/merchant/embed")).statusCode).toBe(403);
    expect((await put(undefined, [SHOP])).statusCode).toBe(401);
    const changed = await put(admin, [SHOP, "https://admin.example"]);
    expect(changed.statusCode).toBe(200);
    expect(changed.json().origins).toEqual([SHOP, "https://admin.example"]);
    // Another business's settings are untouched.
    expect((await api(app, other.cookie).get("/api/merchant/embed")).json().origins).toEqual([]);
  });
});

describe("framing headers per route", () => {
  it("the embedded checkout may be framed by its business's origins (and the product itself) only", async () => {
    const res = await app.inject({ method: "GET", url: `/pay/${reference}?embed=1&origin=${SHOP}` });
    expect(res.statusCode).toBe(200);
    expect(frameAncestors(res.headers)).toBe(`'self' ${SHOP} https://admin.example`);
    expect(res.headers["x-frame-options"]).toBeUndefined();
    // A phone opens it as a page of its own that reports back to its opener: no COOP severs that.
    expect(res.headers["cross-origin-opener-policy"]).toBeUndefined();
    // The rest of the CSP is the site's own.
    expect(String(res.headers["content-security-policy"])).toContain("script-src 'self'");
  });

  it("every other page stays unframeable: the plain checkout, other businesses, unknown payments, the dashboard", async () => {
    for (const url of [
      `/pay/${reference}`,
      `/pay/${reference}?embed=0`,
      `/pay/${otherReference}?embed=1&origin=${SHOP}`,
      `/pay/${"x".repeat(30)}?embed=1`,
      `/easy-payment?ref=${reference}&embed=1`,
      "/merchant",
      "/merchant?embed=1",
      "/developers",
      "/",
      "/api/merchant/embed",
      `/api/payments/public/${reference}`,
    ]) {
      const res = await app.inject({ method: "GET", url, headers: { cookie: owner.cookie } });
      const ancestors = frameAncestors(res.headers);
      // The other business lists no origin: its checkout may be framed by the product itself alone.
      if (url.includes(otherReference)) expect(ancestors, url).toBe("'self'");
      else expect(ancestors, url).toBe("'none'");
      if (!url.includes(otherReference)) expect(res.headers["x-frame-options"], url).toBe("DENY");
    }
  });

  it("tells the checkout whether it may report to an origin", async () => {
    const ask = async (ref: string, origin: string) => {
      const res = await app.inject({
        method: "GET",
        url: `/api/payments/public/${ref}/embed-origin?origin=${encodeURIComponent(origin)}`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      return res.json().origin;
    };
    expect(await ask(reference, SHOP)).toBe(SHOP);
    expect(await ask(reference, "https://SHOP.example/")).toBe(SHOP);
    expect(await ask(reference, "https://evil.example")).toBeNull();
    expect(await ask(reference, "not an origin")).toBeNull();
    expect(await ask(reference, "https://pay.example.com")).toBe("https://pay.example.com");
    expect(await ask(otherReference, SHOP)).toBeNull();
    expect(await ask("y".repeat(30), SHOP)).toBeNull();
    // A reference no payment can have is as unknown as one none has.
    const bad = await app.inject({ method: "GET", url: "/api/payments/public/short/embed-origin?origin=x" });
    expect(bad.statusCode).toBe(404);
  });

  it("a payment link's page: framed by its business's origins only; it asks the same before it talks", async () => {
    const create = async (cookie: string) =>
      (
        await api(app, cookie).post("/api/merchant/links", {
          title: "Tea tin",
          pricing: "fixed",
          currency: "USD",
          amount: "5.00",
        })
      ).json().slug as string;
    const slug = await create(owner.cookie);
    const otherSlug = await create(other.cookie);
    const framed = await app.inject({ method: "GET", url: `/l/${slug}?embed=1&origin=${SHOP}` });
    expect(framed.statusCode).toBe(200);
    expect(frameAncestors(framed.headers)).toBe(`'self' ${SHOP} https://admin.example`);
    expect(framed.headers["x-frame-options"]).toBeUndefined();
    expect(frameAncestors((await app.inject({ url: `/l/${slug.toUpperCase()}?embed=1` })).headers)).toBe(
      `'self' ${SHOP} https://admin.example`,
    );
    for (const url of [`/l/${slug}`, `/l/${slug}?embed=0`, "/l/no-such-link?embed=1", "/l/a%20b?embed=1"]) {
      const res = await app.inject({ method: "GET", url });
      expect(frameAncestors(res.headers), url).toBe("'none'");
      expect(res.headers["x-frame-options"], url).toBe("DENY");
    }
    expect(frameAncestors((await app.inject({ url: `/l/${otherSlug}?embed=1` })).headers)).toBe("'self'");

    const ask = async (s: string, origin: string) => {
      const res = await app.inject({
        url: `/api/links/public/${s}/embed-origin?origin=${encodeURIComponent(origin)}`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      return res.json().origin;
    };
    expect(await ask(slug, SHOP)).toBe(SHOP);
    expect(await ask(slug, "https://evil.example")).toBeNull();
    expect(await ask(otherSlug, SHOP)).toBeNull();
    expect(await ask("no-such-link", SHOP)).toBeNull();
  });
});

describe("/embed.js", () => {
  it("is served to other sites' pages: cross-origin, compressed, short cache at the stable URL", async () => {
    const res = await app.inject({
      method: "GET",
      url: "/embed.js",
      headers: { "accept-encoding": "gzip" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    expect(res.headers["cache-control"]).toBe("public, max-age=300, stale-while-revalidate=86400");
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
    const version = String(res.headers["x-embed-version"]);
    expect(res.headers.etag).toBe(`"${version}"`);

    const pinned = await app.inject({ method: "GET", url: `/embed.js?v=${version}` });
    expect(pinned.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(pinned.body).toBe(SCRIPT);
    const stale = await app.inject({ method: "GET", url: "/embed.js?v=000000000000" });
    expect(stale.headers["cache-control"]).toBe("public, max-age=300, stale-while-revalidate=86400");

    const again = await app.inject({
      method: "GET",
      url: "/embed.js",
      headers: { "if-none-match": `"${version}"` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });
});
