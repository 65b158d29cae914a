import { sql } from "drizzle-orm";
import Fastify from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { isMerchantRoute, registerMerchantAccess } from "../src/modules/merchants/access.ts";
import { createTestApp } from "./helpers.ts";
import { createMerchant, paymentTestConfig, signUp, type TestMerchant } from "./payment-helpers.ts";

/**
 * Every /api/merchant route goes through one role and two-factor check (issue 33). The routes are read from the
 * app's route table, so a route added later is walked too; what staff and admins may do is the role matrix of
 * decision 021, written here independently of what the routes declare, and a route not listed counts as one
 * staff may not call (the safe default: list it here when staff should reach it).
 */

/** Routes staff may call (creating payments, history, inbox, reports, the counter's products, their own business's page). */
const STAFF_MAY = new Set([
  "GET /api/merchant",
  "POST /api/merchant/payments",
  "GET /api/merchant/payments",
  "GET /api/merchant/payments/:id",
  "POST /api/merchant/payments/:id/regenerate",
  "POST /api/merchant/payments/:id/cancel",
  "GET /api/merchant/pos/today",
  "GET /api/merchant/links",
  "GET /api/merchant/links/:id",
  "POST /api/merchant/payments/:id/tx",
  "GET /api/merchant/inbox",
  "POST /api/merchant/inbox/:id/assign",
  "POST /api/merchant/inbox/:id/dismiss",
  "GET /api/merchant/reports/summary",
  "GET /api/merchant/reports/payments.csv",
]);
/** Routes for the signed-in account rather than a business: anyone signed in, whatever their role. */
const ACCOUNT = new Set([
  "POST /api/merchant",
  "POST /api/merchant/wallet-challenge",
  "GET /api/merchant/businesses",
  "PUT /api/merchant/active-business",
]);
/** Routes only the owner may call. */
const OWNER_ONLY = new Set([
  "POST /api/merchant/team/transfer-ownership",
  "PUT /api/merchant/require-two-factor",
]);

let app: App;
let owner: TestMerchant;
let staff: { cookie: string };
let admin: { cookie: string };
let strictAdmin: { cookie: string };
let ownersHook: string;
let strictHook: string;

async function createHook(cookie: string) {
  const res = await app.inject({
    method: "POST",
    url: "/api/merchant/webhooks",
    headers: { cookie },
    payload: { url: "http://127.0.0.1:9/hook", events: ["payment.completed"] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

type Route = { method: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE"; url: string; key: string };

function merchantRoutes(): Route[] {
  const routes: Route[] = [];
  for (const { url, methods } of app.routeIndex.list()) {
    if (!isMerchantRoute(url)) continue;
    for (const method of methods) {
      const key = `${method === "HEAD" ? "GET" : method} ${url}`;
      routes.push({ method: method as Route["method"], url, key });
    }
  }
  return routes;
}

function walk(route: Route, cookie?: string) {
  const url = route.url.replace(/:[A-Za-z]+/g, "zz_does_not_exist");
  const hasBody = route.method !== "GET" && route.method !== "HEAD" && route.method !== "DELETE";
  return app.inject({
    method: route.method,
    url,
    headers: cookie ? { cookie } : {},
    ...(hasBody ? { payload: {} } : {}),
  });
}

function expectRefused(res: Awaited<ReturnType<typeof walk>>, route: Route, status: number, code: string) {
  expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(status);
  if (route.method !== "HEAD") {
    expect(res.json().error.code, `${route.method} ${route.url}`).toBe(code);
    expect(res.json().error.message, `${route.method} ${route.url}`).toMatch(/\.$/);
  }
}

/** Makes `user` a member of `merchantId` with `role`, acting for it (as accepting an invitation would). */
async function addMember(merchantId: string, role: "admin" | "staff") {
  const user = await signUp(app);
  const me = await app.inject({ method: "GET", url: "/api/user", headers: { cookie: user.cookie } });
  const userId = me.json().id as string;
  await app.database.db.execute(
    sql`insert into business_members (merchant_id, user_id, role) values (${merchantId}, ${userId}, ${role})`,
  );
  await app.database.db.execute(
    sql`update users set active_merchant_id = ${merchantId} where id = ${userId}`,
  );
  return user;
}

beforeAll(async () => {
  app = await createTestApp({ ...paymentTestConfig(), webhooks: { allowPrivate: true } });
  owner = await createMerchant(app, { name: "Corner Coffee" });
  staff = await addMember(owner.id, "staff");
  admin = await addMember(owner.id, "admin");
  ownersHook = await createHook(owner.cookie);
  const strict = await createMerchant(app, { name: "Strict Shop" });
  strictHook = await createHook(strict.cookie);
  strictAdmin = await addMember(strict.id, "admin");
  // The owner's setting (its own route needs the owner's second factor); set here, it is what the check reads.
  await app.database.db.execute(sql`update merchants set require_two_factor = true where id = ${strict.id}`);
});

describe("every /api/merchant route", () => {
  it("is found in the route table (the walk below covers them all)", () => {
    const keys = new Set(merchantRoutes().map((r) => r.key));
    expect(keys.size).toBeGreaterThan(30);
    for (const key of [...STAFF_MAY, ...ACCOUNT, ...OWNER_ONLY]) expect(keys, key).toContain(key);
    expect(keys).toContain("PATCH /api/merchant/webhooks/:id");
    // GET routes answer HEAD too: those are walked as well.
    expect(merchantRoutes().some((r) => r.method === "HEAD")).toBe(true);
  });

  it("answers 401 to a signed-out caller", async () => {
    for (const route of merchantRoutes()) expectRefused(await walk(route), route, 401, "UNAUTHENTICATED");
  });

  it("answers 403 FORBIDDEN to staff wherever staff may not act, never 404 or 2xx", async () => {
    for (const route of merchantRoutes()) {
      const res = await walk(route, staff.cookie);
      if (STAFF_MAY.has(route.key) || ACCOUNT.has(route.key)) {
        expect([401, 403], `${route.method} ${route.url}: ${res.body}`).not.toContain(res.statusCode);
      } else {
        expectRefused(res, route, 403, "FORBIDDEN");
        if (route.method !== "HEAD") expect(res.json().error.message).toMatch(/As staff/);
      }
    }
  });

  it("answers 403 FORBIDDEN to an admin on the owner's routes only", async () => {
    for (const route of merchantRoutes()) {
      const res = await walk(route, admin.cookie);
      if (OWNER_ONLY.has(route.key)) expectRefused(res, route, 403, "FORBIDDEN");
      else expect([401, 403], `${route.method} ${route.url}: ${res.body}`).not.toContain(res.statusCode);
    }
  });

  it("answers 403 TWO_FACTOR_REQUIRED to an admin without a second factor when the business requires one", async () => {
    for (const route of merchantRoutes()) {
      const res = await walk(route, strictAdmin.cookie);
      if (ACCOUNT.has(route.key)) {
        // The account's own routes (registering a business, switching businesses) stay open to them.
        expect([401, 403], `${route.method} ${route.url}: ${res.body}`).not.toContain(res.statusCode);
      } else {
        expectRefused(res, route, 403, "TWO_FACTOR_REQUIRED");
      }
    }
  });

  it("PATCH /api/merchant/webhooks/:id with a real endpoint and a valid body: staff 403, admin without 2FA 403", async () => {
    const patch = (id: string, cookie: string) =>
      app.inject({
        method: "PATCH",
        url: `/api/merchant/webhooks/${id}`,
        headers: { cookie },
        payload: { enabled: false },
      });
    const route: Route = { method: "PATCH", url: "/api/merchant/webhooks/:id", key: "" };
    expectRefused(await patch(ownersHook, staff.cookie), route, 403, "FORBIDDEN");
    expectRefused(await patch(strictHook, strictAdmin.cookie), route, 403, "TWO_FACTOR_REQUIRED");
    const enabled = await app.database.db.execute(
      sql`select id from webhook_endpoints where id in (${ownersHook}, ${strictHook}) and enabled`,
    );
    const rows = Array.isArray(enabled) ? enabled : (enabled as unknown as { rows: unknown[] }).rows;
    expect(rows).toHaveLength(2);
    expect((await patch(ownersHook, admin.cookie)).statusCode).toBe(200);
  });

  it("cannot be registered without declaring who may call it", async () => {
    const bare = Fastify();
    registerMerchantAccess(bare, { db: app.database.db });
    bare.get("/api/merchant/declared", { config: { merchant: { roles: ["owner"] } } }, async () => ({}));
    expect(() => bare.get("/api/merchant/forgotten", async () => ({}))).toThrow(
      /GET \/api\/merchant\/forgotten is a merchant route without config\.merchant/,
    );
    expect(() =>
      bare.post("/api/merchant/nobody", { config: { merchant: { roles: [] } } }, async () => ({})),
    ).toThrow(/declares no role/);
    // Outside /api/merchant nothing is required.
    bare.get("/api/elsewhere", async () => ({}));
    await bare.close();
  });
});
