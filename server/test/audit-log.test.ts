import { sql } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { auditEvents } from "../src/db/schema.ts";
import { recordAudit } from "../src/modules/audit/record.ts";
import { createTestApp } from "./helpers.ts";
import { api, createMerchant, PASSWORD, paymentTestConfig, proveWallet, signUp } from "./payment-helpers.ts";

const app = await createTestApp({ ...paymentTestConfig(), webhooks: { allowPrivate: true } });
const db = app.database.db;

type Event = {
  id: string;
  action: string;
  actor: string | null;
  target: string | null;
  ip: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
};

async function events(cookie: string, query = ""): Promise<{ items: Event[]; nextCursor: string | null }> {
  const res = await app.inject({
    method: "GET",
    url: `/api/merchant/audit-events${query}`,
    headers: { cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const send = (method: "POST" | "PATCH" | "DELETE" | "PUT", url: string, cookie: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { cookie, "user-agent": "AuditTest/1.0" },
    ...(payload ? { payload } : {}),
  });

async function countRows(where: ReturnType<typeof sql>) {
  const result = (await db.execute(
    sql`select count(*)::int as n from audit_events where ${where}`,
  )) as unknown as { rows: { n: number }[] } | { n: number }[];
  const rows = Array.isArray(result) ? result : result.rows;
  return rows[0]!.n;
}

describe("the audit log records each action", () => {
  it("API keys, webhooks, the receiving address, sign-in and sign-out, each with who, where and what", async () => {
    const merchant = await createMerchant(app);
    const cookie = merchant.cookie;

    const key = await send("POST", "/api/merchant/api-keys", cookie, {
      name: "Till",
      scopes: ["payments:read"],
    });
    expect(key.statusCode, key.body).toBe(201);
    const keyId = key.json().id as string;
    expect((await send("DELETE", `/api/merchant/api-keys/${keyId}`, cookie)).statusCode).toBe(204);

    const hook = await send("POST", "/api/merchant/webhooks", cookie, {
      url: "http://127.0.0.1:9/hook",
      events: ["payment.completed"],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const hookId = hook.json().id as string;
    const hookSecret = hook.json().secret as string;
    expect(
      (await send("PATCH", `/api/merchant/webhooks/${hookId}`, cookie, { enabled: false })).statusCode,
    ).toBe(200);
    const rotated = await send("POST", `/api/merchant/webhooks/${hookId}/rotate-secret`, cookie, {});
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect((await send("DELETE", `/api/merchant/webhooks/${hookId}`, cookie)).statusCode).toBe(200);

    const wallet = privateKeyToAccount(generatePrivateKey());
    const changed = await send("PATCH", "/api/merchant", cookie, {
      walletAddress: wallet.address,
      proof: await proveWallet(app, cookie, wallet),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // Changing only the name is no address change.
    expect((await send("PATCH", "/api/merchant", cookie, { name: "Corner Café" })).statusCode).toBe(200);

    const { items } = await events(cookie);
    const actions = items.map((e) => e.action).reverse();
    expect(actions).toEqual([
      "auth.sign_in",
      "api_key.created",
      "api_key.revoked",
      "webhook.created",
      "webhook.updated",
      "webhook.secret_rotated",
      "webhook.deleted",
      "merchant.wallet_changed",
    ]);
    const byAction = Object.fromEntries(items.map((e) => [e.action, e]));
    expect(byAction["api_key.created"]).toMatchObject({
      target: keyId,
      metadata: { name: "Till", scopes: ["payments:read"] },
    });
    expect(byAction["merchant.wallet_changed"]).toMatchObject({
      target: wallet.address,
      metadata: { from: merchant.wallet.address, to: wallet.address },
    });
    expect(byAction["webhook.updated"]).toMatchObject({ target: hookId, metadata: { enabled: false } });
    for (const event of items) {
      expect(event.actor).toMatch(/^u[0-9a-f]{10}$/);
      expect(event.ip).toBe("127.0.0.1");
    }
    // Secrets never reach the log.
    const all = JSON.stringify(items);
    expect(all).not.toContain(hookSecret);
    expect(all).not.toContain(key.json().secret);
    expect(all).not.toContain(rotated.json().secret);

    // Sign-out, a failed sign-in and a sign-in are recorded too.
    const me = (await app.inject({ method: "GET", url: "/api/user", headers: { cookie } })).json() as {
      username: string;
    };
    expect((await send("POST", "/api/logout", cookie, {})).statusCode).toBe(200);
    const failed = await app.inject({
      method: "POST",
      url: "/api/login",
      payload: { username: me.username, password: "wrong password here" },
    });
    expect(failed.statusCode).toBe(401);
    const again = await app.inject({
      method: "POST",
      url: "/api/login",
      payload: { username: me.username, password: PASSWORD },
    });
    const next = `cpxtb_session=${again.cookies.find((c) => c.name === "cpxtb_session")!.value}`;
    const latest = (await events(next, "?limit=3")).items.map((e) => e.action);
    expect(latest).toEqual(["auth.sign_in", "auth.sign_in_failed", "auth.sign_out"]);
    expect((await events(next, "?action=auth.sign_in_failed")).items[0]!.metadata).toEqual({
      reason: "wrong_password",
    });
  });

  it("two-factor changes are recorded", async () => {
    const { createHmac } = await import("node:crypto");
    void createHmac;
    const { totpAt } = await import("../src/modules/two-factor/totp.ts");
    const merchant = await createMerchant(app);
    const setup = await send("POST", "/api/user/two-factor/totp", merchant.cookie, {});
    const secret = setup.json().secret as string;
    expect(
      (
        await send("POST", "/api/user/two-factor/totp/confirm", merchant.cookie, {
          code: totpAt(secret, Date.now()),
        })
      ).statusCode,
    ).toBe(200);
    expect((await send("POST", "/api/user/two-factor/recovery-codes", merchant.cookie, {})).statusCode).toBe(
      200,
    );
    expect(
      (await send("PUT", "/api/merchant/require-two-factor", merchant.cookie, { requireTwoFactor: true }))
        .statusCode,
    ).toBe(200);
    expect(
      (await send("PUT", "/api/merchant/require-two-factor", merchant.cookie, { requireTwoFactor: false }))
        .statusCode,
    ).toBe(200);
    expect((await send("POST", "/api/user/two-factor/totp/disable", merchant.cookie, {})).statusCode).toBe(
      200,
    );
    const actions = (await events(merchant.cookie)).items.map((e) => e.action).reverse();
    expect(actions).toEqual([
      "auth.sign_in",
      "two_factor.enabled",
      "two_factor.recovery_codes_regenerated",
      "two_factor.required_changed",
      "two_factor.required_changed",
      "two_factor.disabled",
    ]);
    // Nothing secret in the rows: neither the TOTP secret nor any recovery code.
    const raw = JSON.stringify(await db.select().from(auditEvents));
    expect(raw).not.toContain(secret);
  });

  it("signing out everywhere is recorded with the number of sessions ended", async () => {
    const merchant = await createMerchant(app);
    const ended = await app.inject({
      method: "DELETE",
      url: "/api/user/sessions",
      headers: { cookie: merchant.cookie },
    });
    expect(ended.statusCode).toBe(200);
    expect(await countRows(sql`business_id = ${merchant.id} and action = 'auth.sign_out'`)).toBe(1);
    const rows = await db.execute(
      sql`select metadata from audit_events where business_id = ${merchant.id} and action = 'auth.sign_out'`,
    );
    expect(JSON.stringify(rows)).toContain('"everywhere":true');
  });
});

describe("written in the transaction of the action", () => {
  it("an action whose audit row cannot be written does not happen, and a rolled-back action leaves no row", async () => {
    const merchant = await createMerchant(app);
    // A real database failure on the audit insert (no mock): the API key insert in the same transaction must go.
    await db.execute(
      sql.raw(`
      create function audit_fail_for_test() returns trigger language plpgsql as $$
      begin
        if new.action = 'api_key.created' and new.metadata->>'name' = 'Doomed' then
          raise exception 'audit insert failed on purpose';
        end if;
        return new;
      end; $$`),
    );
    await db.execute(
      sql.raw(
        "create trigger audit_fail_for_test before insert on audit_events for each row execute function audit_fail_for_test()",
      ),
    );
    try {
      const res = await send("POST", "/api/merchant/api-keys", merchant.cookie, {
        name: "Doomed",
        scopes: ["payments:read"],
      });
      expect(res.statusCode).toBe(500);
      expect(await countRows(sql`business_id = ${merchant.id} and action = 'api_key.created'`)).toBe(0);
      const keys = await app.inject({
        method: "GET",
        url: "/api/merchant/api-keys",
        headers: { cookie: merchant.cookie },
      });
      expect(keys.json().items).toEqual([]);
    } finally {
      await db.execute(sql.raw("drop trigger audit_fail_for_test on audit_events"));
      await db.execute(sql.raw("drop function audit_fail_for_test()"));
    }

    // The other way round: an audit row written in a transaction that then fails is gone with it.
    await expect(
      db.transaction(async (tx) => {
        await recordAudit(
          tx,
          { userId: null, ip: null, userAgent: null },
          {
            action: "api_key.revoked",
            businessId: merchant.id,
            target: "key_rolled_back",
          },
        );
        throw new Error("the action failed");
      }),
    ).rejects.toThrow("the action failed");
    expect(await countRows(sql`target = 'key_rolled_back'`)).toBe(0);

    // A refused action (unknown key) writes nothing.
    const refused = await send(
      "DELETE",
      "/api/merchant/api-keys/key_00000000000000000000000000",
      merchant.cookie,
    );
    expect(refused.statusCode).toBe(404);
    expect(await countRows(sql`business_id = ${merchant.id} and action = 'api_key.revoked'`)).toBe(0);
  });
});

describe("append-only", () => {
  it("the database refuses UPDATE, DELETE and TRUNCATE", async () => {
    const merchant = await createMerchant(app);
    const key = await send("POST", "/api/merchant/api-keys", merchant.cookie, {
      name: "Kept",
      scopes: ["payments:read"],
    });
    expect(key.statusCode).toBe(201);
    expect(await countRows(sql`business_id = ${merchant.id}`)).toBe(1);
    await expect(
      db.execute(sql`update audit_events set action = 'auth.sign_out' where business_id = ${merchant.id}`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`delete from audit_events where business_id = ${merchant.id}`),
    ).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_events`)).rejects.toThrow();
    expect(await countRows(sql`business_id = ${merchant.id} and action = 'api_key.created'`)).toBe(1);
  });

  it("has no route that changes or removes an event", async () => {
    const merchant = await createMerchant(app);
    const [first] = (await events(merchant.cookie)).items;
    for (const method of ["PATCH", "PUT", "DELETE"] as const) {
      const res = await send(
        method,
        `/api/merchant/audit-events/${first!.id}`,
        merchant.cookie,
        method === "DELETE" ? undefined : {},
      );
      expect(res.statusCode).toBeGreaterThanOrEqual(404);
      expect(res.statusCode).toBeLessThan(500);
    }
  });
});

describe("reading the log", () => {
  it("shows only the owner's business, pages by keyset, filters by action and date, and refuses bad input", async () => {
    const a = await createMerchant(app);
    const b = await createMerchant(app);
    for (let i = 0; i < 5; i++) {
      expect(
        (await send("POST", "/api/merchant/api-keys", a.cookie, { name: `A${i}`, scopes: ["payments:read"] }))
          .statusCode,
      ).toBe(201);
    }
    expect(
      (await send("POST", "/api/merchant/api-keys", b.cookie, { name: "B0", scopes: ["payments:read"] }))
        .statusCode,
    ).toBe(201);

    const mine = await events(a.cookie, "?limit=100");
    expect(mine.items).toHaveLength(6);
    expect(JSON.stringify(mine)).not.toContain('"B0"');
    const theirs = await events(b.cookie, "?limit=100");
    expect(theirs.items.map((e) => e.metadata.name).filter(Boolean)).toEqual(["B0"]);
    // A cursor from another business's log shows nothing of theirs.
    const crossed = await events(b.cookie, `?cursor=${mine.items[0]!.id}&limit=100`);
    expect(crossed.items.every((e) => !String(e.metadata.name ?? "").startsWith("A"))).toBe(true);

    const page1 = await events(a.cookie, "?limit=4");
    expect(page1.items).toHaveLength(4);
    expect(page1.nextCursor).toBe(page1.items[3]!.id);
    const page2 = await events(a.cookie, `?limit=4&cursor=${page1.nextCursor}`);
    expect(page2.items).toHaveLength(2);
    expect(page2.nextCursor).toBeNull();
    expect([...page1.items, ...page2.items].map((e) => e.id)).toEqual(mine.items.map((e) => e.id));

    expect((await events(a.cookie, "?action=api_key.created")).items).toHaveLength(5);
    const today = new Date().toISOString().slice(0, 10);
    expect((await events(a.cookie, `?from=${today}&to=${today}`)).items).toHaveLength(6);
    expect((await events(a.cookie, "?to=2000-01-01")).items).toHaveLength(0);
    expect((await events(a.cookie, "?from=2999-01-01")).items).toHaveLength(0);

    for (const bad of [
      "?action=drop_table",
      "?from=yesterday",
      "?limit=0",
      "?limit=1000",
      "?cursor=x",
      "?from=2025-02-31",
    ]) {
      const res = await app.inject({
        method: "GET",
        url: `/api/merchant/audit-events${bad}`,
        headers: { cookie: a.cookie },
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
    expect((await app.inject({ method: "GET", url: "/api/merchant/audit-events" })).statusCode).toBe(401);

    // A user without a business sees their own sign-ins only.
    const loner = await signUp(app);
    const own = await events(loner.cookie);
    expect(own.items.map((e) => e.action)).toEqual(["auth.sign_in"]);
    void api;
  });
});
