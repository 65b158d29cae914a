import { sql } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { totpAt } from "../src/modules/two-factor/totp.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import { englishWordsIn, readMail, startMailCapture } from "./mail-capture.ts";
import {
  createMerchant,
  createPayment,
  PASSWORD,
  paymentTestConfig,
  proveWallet,
  signUp,
  type TestMerchant,
} from "./payment-helpers.ts";
import { TestSocket } from "./ws-client.ts";

let chain: TestChain;
let app: App;
const mail = await startMailCapture();
afterAll(() => mail.close());

type Res = Awaited<ReturnType<App["inject"]>>;

function call(
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  url: string,
  cookie?: string,
  payload?: object,
) {
  return app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), "user-agent": "TeamTest/1.0" },
    ...(payload ? { payload } : {}),
  });
}

function expectError(res: Res, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error.code).toBe(code);
  expect(typeof res.json().error.message).toBe("string");
}

let counter = 0;
const email = () => `member${++counter}.${Date.now()}@example.com`;

/** Invites `address` with `role` as `inviter`; returns the token read from the email actually sent. */
async function invite(inviter: string, address: string, role: "admin" | "staff") {
  const res = await call("POST", "/api/merchant/team/invitations", inviter, { email: address, role });
  expect(res.statusCode, res.body).toBe(201);
  const message = await mail.waitFor(address);
  const token = /\/invitations\/([A-Za-z0-9_-]{43})/.exec(message.raw)?.[1];
  expect(token).toBeTruthy();
  return { invitation: res.json() as { id: string }, token: token! };
}

async function join(inviter: string, role: "admin" | "staff") {
  const member = await signUp(app);
  const { token } = await invite(inviter, email(), role);
  const accepted = await call("POST", `/api/invitations/${token}/accept`, member.cookie);
  expect(accepted.statusCode, accepted.body).toBe(200);
  const me = await call("GET", "/api/user", member.cookie);
  return { ...member, id: me.json().id as string };
}

async function rows(query: ReturnType<typeof sql>) {
  const result = (await app.database.db.execute(query)) as unknown as
    | { rows: Record<string, unknown>[] }
    | Record<string, unknown>[];
  return Array.isArray(result) ? result : result.rows;
}

let owner: TestMerchant;
let other: TestMerchant;
let wsUrl: string;

beforeAll(async () => {
  chain = await startTestChain();
  const connected = await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations: 1 }));
  app = await createTestApp({ ...paymentTestConfig(), smtpUrl: mail.url }, { chain: connected });
  owner = await createMerchant(app, { name: "Corner Coffee" });
  other = await createMerchant(app, { name: "Book Nook" });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address() as { port: number };
  wsUrl = `ws://127.0.0.1:${address.port}/ws`;
});
afterAll(async () => {
  await chain?.stop();
});

/** The first email to `address` after the `before`th message. */
async function nextMailTo(address: string, before: number) {
  await expect
    .poll(() => mail.messages.slice(before).some((m) => m.to.includes(address)), { timeout: 30_000 })
    .toBe(true);
  return mail.messages.slice(before).find((m) => m.to.includes(address))!;
}

describe("invitation emails (issue 37)", () => {
  it("speak the invitee's language when the address is an account's, else the inviter's, else English", async () => {
    const bakery = await createMerchant(app, { name: "Padaria Central" });
    // The inviter chose Portuguese in the language menu: saved with their account.
    const chosen = await call("PATCH", "/api/user/preferences", bakery.cookie, { locale: "pt-BR" });
    expect(chosen.statusCode, chosen.body).toBe(200);

    // An address no account has: the inviter's language.
    const newcomer = email();
    await invite(bakery.cookie, newcomer, "staff");
    const portuguese = readMail(await mail.waitFor(newcomer));
    expect(portuguese.subject).toBe("Convite para entrar na equipe de Padaria Central no CPXTB Pay");
    expect(portuguese.text).toContain(
      "Padaria Central convida você para fazer parte da equipe no CPXTB Pay com a função de colaborador.",
    );
    expect(portuguese.text).toContain("Abra este link em até 7 dias para aceitar o convite");
    expect(portuguese.html).toContain('<html lang="pt-BR" dir="ltr">');
    expect(englishWordsIn(`${portuguese.subject}\n${portuguese.text}\n${portuguese.html}`)).toEqual([]);

    // The verified address of an account whose reader chose Arabic: their language, right to left.
    const address = email();
    const registered = await app.inject({
      method: "POST",
      url: "/api/register",
      payload: { username: `ar${Date.now()}`, password: PASSWORD, email: address, locale: "ar" },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const confirm = await mail.waitFor(address);
    const verifyToken = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(confirm.raw)![1];
    expect((await app.inject({ url: `/api/verify-email?token=${verifyToken}` })).statusCode).toBe(303);
    const before = mail.messages.length;
    const res = await call("POST", "/api/merchant/team/invitations", bakery.cookie, {
      email: address,
      role: "admin",
    });
    expect(res.statusCode, res.body).toBe(201);
    const arabic = readMail(await nextMailTo(address, before));
    expect(arabic.subject).toBe("دعوة للانضمام إلى Padaria Central على CPXTB Pay");
    expect(arabic.text).toContain(
      "يدعوك النشاط التجاري Padaria Central إلى الانضمام إلى فريقه على CPXTB Pay بدور مسؤول.",
    );
    expect(arabic.text).toContain("خلال 7 أيام");
    expect(arabic.text).toMatch(/^https?:\/\/[^/]+\/invitations\/[A-Za-z0-9_-]{43}$/m);
    expect(arabic.html).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.html).toMatch(/<a href="https?:\/\/[^"]+\/invitations\/[A-Za-z0-9_-]{43}" dir="ltr"/);
    expect(englishWordsIn(`${arabic.subject}\n${arabic.text}\n${arabic.html}`)).toEqual([]);

    // An inviter who never chose a language (nor sent one), to a new address: English.
    const plain = email();
    await invite(owner.cookie, plain, "admin");
    const english = readMail(await mail.waitFor(plain));
    expect(english.subject).toBe("You are invited to Corner Coffee on CPXTB Pay");
    expect(english.text).toContain("Corner Coffee invites you to join its team on CPXTB Pay as an admin.");
    expect(english.text).toContain("Open this link within 7 days to accept (it works once).");
    expect(english.html).toContain('<html lang="en" dir="ltr">');
  });
});

describe("invitations", () => {
  it("are emailed, previewed, accepted once with an existing account; reuse is refused", async () => {
    const address = email();
    const { token } = await invite(owner.cookie, address, "staff");
    const stored = await rows(sql`select token_hash from business_invitations where email = ${address}`);
    expect(stored[0]!.token_hash).not.toBe(token);
    expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const preview = await call("GET", `/api/invitations/${token}`);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ businessName: "Corner Coffee", role: "staff", email: address });

    expectError(await call("POST", `/api/invitations/${token}/accept`), 401, "UNAUTHENTICATED");
    const existing = await signUp(app);
    const accepted = await call("POST", `/api/invitations/${token}/accept`, existing.cookie);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ businessName: "Corner Coffee", role: "staff" });
    const merchant = await call("GET", "/api/merchant", existing.cookie);
    expect(merchant.json()).toMatchObject({ id: owner.id, role: "staff" });

    const someoneElse = await signUp(app);
    const reused = await call("POST", `/api/invitations/${token}/accept`, someoneElse.cookie);
    expectError(reused, 410, "GONE");
    expect(reused.json().error.message).toMatch(/already used/);
    expectError(await call("GET", `/api/invitations/${token}`), 410, "GONE");
    expectError(await call("GET", "/api/merchant", someoneElse.cookie), 404, "NOT_FOUND");
  });

  it("can be accepted by an account created after the invitation arrived", async () => {
    const address = email();
    const { token } = await invite(owner.cookie, address, "admin");
    const registered = await app.inject({
      method: "POST",
      url: "/api/register",
      payload: { username: `new${Date.now()}`, password: PASSWORD, email: address },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const cookie = `cpxtb_session=${registered.cookies.find((c) => c.name === "cpxtb_session")!.value}`;
    const accepted = await call("POST", `/api/invitations/${token}/accept`, cookie);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await call("GET", "/api/merchant", cookie)).json()).toMatchObject({
      id: owner.id,
      role: "admin",
    });
  });

  it("expire after 7 days, can be revoked, and malformed or unknown tokens are clear 4xx", async () => {
    const late = await invite(owner.cookie, email(), "staff");
    await app.database.db.execute(
      sql`update business_invitations set expires_at = now() - interval '1 second' where id = ${late.invitation.id}`,
    );
    const member = await signUp(app);
    const expired = await call("POST", `/api/invitations/${late.token}/accept`, member.cookie);
    expectError(expired, 410, "GONE");
    expect(expired.json().error.message).toMatch(/expired/);

    const fresh = await invite(owner.cookie, email(), "staff");
    const [row] = await rows(
      sql`select expires_at - created_at as ttl from business_invitations where id = ${fresh.invitation.id}`,
    );
    expect(String(row!.ttl)).toMatch(/7 days/);
    expect(
      (await call("DELETE", `/api/merchant/team/invitations/${fresh.invitation.id}`, owner.cookie))
        .statusCode,
    ).toBe(204);
    expectError(await call("POST", `/api/invitations/${fresh.token}/accept`, member.cookie), 410, "GONE");
    expectError(
      await call("DELETE", `/api/merchant/team/invitations/${fresh.invitation.id}`, owner.cookie),
      404,
      "NOT_FOUND",
    );

    expectError(await call("GET", "/api/invitations/short"), 400, "VALIDATION_ERROR");
    expectError(await call("GET", `/api/invitations/${"A".repeat(43)}`), 404, "NOT_FOUND");
    expectError(
      await call("POST", "/api/merchant/team/invitations", owner.cookie, { email: "nope", role: "staff" }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await call("POST", "/api/merchant/team/invitations", owner.cookie, { email: email(), role: "owner" }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(await call("GET", "/api/merchant", member.cookie), 404, "NOT_FOUND");
  });
});

describe("roles", () => {
  it("staff create payments and read history, but cannot refund, change the wallet, see keys, webhooks, team or audit log", async () => {
    const staff = await join(owner.cookie, "staff");
    const ownersPayment = await createPayment(app, owner.cookie, { description: "owner's" });
    const created = await createPayment(app, staff.cookie, { description: "by staff" });
    const list = await call("GET", "/api/merchant/payments", staff.cookie);
    expect(list.statusCode, list.body).toBe(200);
    const ids = (list.json().items as { id: string }[]).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([created.id, ownersPayment.id]));
    expect((await call("GET", `/api/merchant/payments/${ownersPayment.id}`, staff.cookie)).statusCode).toBe(
      200,
    );
    expect(
      (await call("GET", "/api/merchant/reports/summary?from=2026-01-01&to=2026-12-31&tz=UTC", staff.cookie))
        .statusCode,
    ).toBe(200);

    const refund = await call("POST", `/api/merchant/payments/${ownersPayment.id}/refunds`, staff.cookie, {
      txHash: `0x${"ab".repeat(32)}`,
      toAddress: "0x1111111111111111111111111111111111111111",
      amountBase: "1",
    });
    expectError(refund, 403, "FORBIDDEN");
    expectError(
      await call("POST", `/api/merchant/payments/${ownersPayment.id}/refund-links`, staff.cookie),
      403,
      "FORBIDDEN",
    );

    const wallet = privateKeyToAccount(generatePrivateKey());
    const walletChange = await call("PATCH", "/api/merchant", staff.cookie, {
      walletAddress: wallet.address,
      proof: await proveWallet(app, staff.cookie, wallet),
    });
    expectError(walletChange, 403, "FORBIDDEN");
    expectError(await call("PATCH", "/api/merchant", staff.cookie, { name: "Taken over" }), 403, "FORBIDDEN");
    expectError(await call("GET", "/api/merchant/api-keys", staff.cookie), 403, "FORBIDDEN");
    expectError(
      await call("POST", "/api/merchant/api-keys", staff.cookie, { name: "x", scopes: ["payments:read"] }),
      403,
      "FORBIDDEN",
    );
    expectError(await call("GET", "/api/merchant/webhooks", staff.cookie), 403, "FORBIDDEN");
    expectError(
      await call("POST", "/api/merchant/webhooks", staff.cookie, {
        url: "https://example.com/h",
        events: ["payment.completed"],
      }),
      403,
      "FORBIDDEN",
    );
    expectError(await call("GET", "/api/merchant/team", staff.cookie), 403, "FORBIDDEN");
    expectError(
      await call("POST", "/api/merchant/team/invitations", staff.cookie, { email: email(), role: "staff" }),
      403,
      "FORBIDDEN",
    );
    expectError(await call("GET", "/api/merchant/audit-events", staff.cookie), 403, "FORBIDDEN");
    const name = await rows(sql`select name from merchants where id = ${owner.id}`);
    expect(name[0]!.name).toBe("Corner Coffee");
  });

  it("admins manage keys, webhooks, team and the audit log, but cannot transfer ownership or touch the owner", async () => {
    const admin = await join(owner.cookie, "admin");
    expect((await call("GET", "/api/merchant/api-keys", admin.cookie)).statusCode).toBe(200);
    expect(
      (
        await call("POST", "/api/merchant/api-keys", admin.cookie, {
          name: "Till",
          scopes: ["payments:read"],
        })
      ).statusCode,
    ).toBe(201);
    expect((await call("GET", "/api/merchant/webhooks", admin.cookie)).statusCode).toBe(200);
    expect((await call("GET", "/api/merchant/audit-events", admin.cookie)).statusCode).toBe(200);
    const team = await call("GET", "/api/merchant/team", admin.cookie);
    expect(team.statusCode, team.body).toBe(200);
    const ownerId = (team.json().members as { userId: string; role: string }[]).find(
      (m) => m.role === "owner",
    )!.userId;

    expectError(
      await call("POST", "/api/merchant/team/transfer-ownership", admin.cookie, { userId: admin.id }),
      403,
      "FORBIDDEN",
    );
    expectError(
      await call("DELETE", `/api/merchant/team/members/${ownerId}`, admin.cookie),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call("PATCH", `/api/merchant/team/members/${ownerId}`, admin.cookie, { role: "staff" }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call("PATCH", `/api/merchant/team/members/${ownerId}`, admin.cookie, { role: "owner" }),
      400,
      "VALIDATION_ERROR",
    );
  });

  it("a role change and a removal count from the very next request", async () => {
    const member = await join(owner.cookie, "admin");
    expect((await call("GET", "/api/merchant/api-keys", member.cookie)).statusCode).toBe(200);
    const changed = await call("PATCH", `/api/merchant/team/members/${member.id}`, owner.cookie, {
      role: "staff",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expectError(await call("GET", "/api/merchant/api-keys", member.cookie), 403, "FORBIDDEN");

    expect((await call("GET", "/api/merchant/payments", member.cookie)).statusCode).toBe(200);
    expect((await call("DELETE", `/api/merchant/team/members/${member.id}`, owner.cookie)).statusCode).toBe(
      204,
    );
    const after = await call("GET", "/api/merchant/payments", member.cookie);
    expectError(after, 403, "FORBIDDEN");
    expect(after.json().error.message).toMatch(/no longer a member/);
    expectError(await call("GET", "/api/merchant", member.cookie), 403, "FORBIDDEN");
    expectError(
      await call("POST", "/api/merchant/payments", member.cookie, { currency: "USD", amount: "1.00" }),
      403,
      "FORBIDDEN",
    );
    // Back to their own account: no business of their own.
    expect(
      (await call("PUT", "/api/merchant/active-business", member.cookie, { merchantId: null })).statusCode,
    ).toBe(200);
    expectError(await call("GET", "/api/merchant", member.cookie), 404, "NOT_FOUND");
  });

  it("a member's live dashboard feed ends the moment they are removed, and a new subscription is refused", async () => {
    const staff = await join(owner.cookie, "staff");
    const socket = await TestSocket.open(wsUrl, { headers: { cookie: staff.cookie } });
    try {
      socket.send({ type: "subscribeMerchant" });
      await socket.next((m) => m.type === "merchantSubscribed" && m.merchantId === owner.id);
      const seen = await createPayment(app, owner.cookie);
      await socket.next(
        (m) => m.type === "merchantPaymentUpdate" && (m.payment as { id: string }).id === seen.id,
      );

      expect((await call("DELETE", `/api/merchant/team/members/${staff.id}`, owner.cookie)).statusCode).toBe(
        204,
      );
      await socket.next((m) => m.type === "merchantError" && m.code === "FORBIDDEN");
      const after = socket.messages.length;
      const unseen = await createPayment(app, owner.cookie);
      socket.send({ type: "subscribeMerchant" });
      await socket.next((m) => m.type === "merchantError" && m.code === "FORBIDDEN", 10_000, after);
      expect(
        socket.messages.some(
          (m) => m.type === "merchantPaymentUpdate" && (m.payment as { id: string }).id === unseen.id,
        ),
      ).toBe(false);
    } finally {
      await socket.close();
    }
  });

  it("a member of two businesses sees only the one they act for, and switches between them", async () => {
    const staff = await join(owner.cookie, "staff");
    const { token } = await invite(other.cookie, email(), "staff");
    expect((await call("POST", `/api/invitations/${token}/accept`, staff.cookie)).statusCode).toBe(200);
    const ownPayment = await createPayment(app, owner.cookie);
    const otherPayment = await createPayment(app, other.cookie);

    const businesses = await call("GET", "/api/merchant/businesses", staff.cookie);
    expect(businesses.json().items).toHaveLength(2);
    expect((await call("GET", "/api/merchant", staff.cookie)).json()).toMatchObject({
      id: other.id,
      businessCount: 2,
    });
    const listed = (await call("GET", "/api/merchant/payments?limit=100", staff.cookie)).json().items as {
      id: string;
    }[];
    expect(listed.map((p) => p.id)).toContain(otherPayment.id);
    expect(listed.map((p) => p.id)).not.toContain(ownPayment.id);
    expectError(await call("GET", `/api/merchant/payments/${ownPayment.id}`, staff.cookie), 404, "NOT_FOUND");

    expect(
      (await call("PUT", "/api/merchant/active-business", staff.cookie, { merchantId: owner.id })).statusCode,
    ).toBe(200);
    expect((await call("GET", `/api/merchant/payments/${ownPayment.id}`, staff.cookie)).statusCode).toBe(200);
    expectError(
      await call("GET", `/api/merchant/payments/${otherPayment.id}`, staff.cookie),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call("PUT", "/api/merchant/active-business", staff.cookie, { merchantId: "mer_unknown" }),
      404,
      "NOT_FOUND",
    );
    // Another business's owner never sees this business's rows.
    expectError(await call("GET", `/api/merchant/payments/${ownPayment.id}`, other.cookie), 404, "NOT_FOUND");
  });
});

describe("ownership", () => {
  it("is transferred in one transaction: the old owner becomes admin, merchants.owner_id follows", async () => {
    const shop = await createMerchant(app, { name: "Flower Stall" });
    const admin = await join(shop.cookie, "admin");
    const moved = await call("POST", "/api/merchant/team/transfer-ownership", shop.cookie, {
      userId: admin.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const [merchant] = await rows(sql`select owner_id from merchants where id = ${shop.id}`);
    expect(merchant!.owner_id).toBe(admin.id);
    expect((await call("GET", "/api/merchant", admin.cookie)).json()).toMatchObject({
      id: shop.id,
      role: "owner",
    });
    expect((await call("GET", "/api/merchant", shop.cookie)).json()).toMatchObject({
      id: shop.id,
      role: "admin",
    });
    expectError(
      await call("POST", "/api/merchant/team/transfer-ownership", shop.cookie, { userId: admin.id }),
      403,
      "FORBIDDEN",
    );
    const audit = await rows(
      sql`select action, target from audit_events where business_id = ${shop.id} and action = 'ownership.transferred'`,
    );
    expect(audit).toEqual([{ action: "ownership.transferred", target: admin.id }]);
  });

  it("cannot go to a member who owns another business", async () => {
    const shop = await createMerchant(app, { name: "Bike Repair" });
    const { token } = await invite(shop.cookie, email(), "admin");
    expect((await call("POST", `/api/invitations/${token}/accept`, other.cookie)).statusCode).toBe(200);
    const otherId = (await call("GET", "/api/user", other.cookie)).json().id as string;
    expectError(
      await call("POST", "/api/merchant/team/transfer-ownership", shop.cookie, { userId: otherId }),
      409,
      "CONFLICT",
    );
    const [merchant] = await rows(sql`select owner_id from merchants where id = ${shop.id}`);
    expect(merchant!.owner_id).not.toBe(otherId);
    // Back to their own business for the other tests.
    expect(
      (await call("PUT", "/api/merchant/active-business", other.cookie, { merchantId: null })).statusCode,
    ).toBe(200);
    expect((await call("GET", "/api/merchant", other.cookie)).json().id).toBe(other.id);
  });
});

describe("an invitation counts only while its sender may still invite", () => {
  /** Admin D of a fresh business invites another address of theirs as admin: the link and D's second account. */
  async function adminInvitesThemself() {
    const shop = await createMerchant(app, { name: "Tea Room" });
    const admin = await join(shop.cookie, "admin");
    const { token } = await invite(admin.cookie, email(), "admin");
    const secondAccount = await signUp(app);
    return { shop, admin, token, secondAccount };
  }

  async function expectWithdrawn(token: string, cookie: string, shopId: string) {
    const preview = await call("GET", `/api/invitations/${token}`);
    expectError(preview, 410, "GONE");
    expect(preview.json().error.message).toMatch(/withdrawn/);
    const accepted = await call("POST", `/api/invitations/${token}/accept`, cookie);
    expectError(accepted, 410, "GONE");
    expect(accepted.json().error.message).toMatch(/withdrawn/);
    const me = (await call("GET", "/api/user", cookie)).json().id as string;
    expect(
      await rows(sql`select 1 from business_members where merchant_id = ${shopId} and user_id = ${me}`),
    ).toEqual([]);
    expectError(await call("GET", "/api/merchant", cookie), 404, "NOT_FOUND");
  }

  it("a removed admin's invitation is withdrawn with them and cannot bring them back", async () => {
    const { shop, admin, token, secondAccount } = await adminInvitesThemself();
    expect((await call("DELETE", `/api/merchant/team/members/${admin.id}`, shop.cookie)).statusCode).toBe(
      204,
    );
    await expectWithdrawn(token, secondAccount.cookie, shop.id);
    const revoked = await rows(
      sql`select metadata from audit_events where business_id = ${shop.id} and action = 'invitation.revoked'`,
    );
    expect(revoked).toHaveLength(1);
    expect(revoked[0]!.metadata).toMatchObject({
      reason: "inviter_lost_role",
      inviter: admin.id,
      role: "admin",
    });
    // The owner's team page no longer lists it.
    const team = await call("GET", "/api/merchant/team", shop.cookie);
    expect(team.json().invitations).toEqual([]);
  });

  it("an admin demoted to staff: what they sent is withdrawn in the same transaction", async () => {
    const { shop, admin, token, secondAccount } = await adminInvitesThemself();
    const { token: staffToken } = await invite(admin.cookie, email(), "staff");
    const demoted = await call("PATCH", `/api/merchant/team/members/${admin.id}`, shop.cookie, {
      role: "staff",
    });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(demoted.json().invitations).toEqual([]);
    await expectWithdrawn(token, secondAccount.cookie, shop.id);
    await expectWithdrawn(staffToken, (await signUp(app)).cookie, shop.id);
  });

  it("the owner's pending invitations are withdrawn when the ownership moves", async () => {
    const shop = await createMerchant(app, { name: "Print Shop" });
    const { token } = await invite(shop.cookie, email(), "admin");
    const heir = await join(shop.cookie, "admin");
    const { token: heirsToken } = await invite(heir.cookie, email(), "staff");
    const moved = await call("POST", "/api/merchant/team/transfer-ownership", shop.cookie, {
      userId: heir.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await expectWithdrawn(token, (await signUp(app)).cookie, shop.id);
    // An invitation sent by someone whose role still allows it stays good.
    const joiner = await signUp(app);
    const accepted = await call("POST", `/api/invitations/${heirsToken}/accept`, joiner.cookie);
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it("is checked at accept time too: an inviter demoted without the withdrawal (an older invitation) still counts for nothing", async () => {
    const { shop, admin, token, secondAccount } = await adminInvitesThemself();
    // As a database written before withdrawals existed would hold it: demoted, the invitation still pending.
    await app.database.db.execute(
      sql`update business_members set role = 'staff' where merchant_id = ${shop.id} and user_id = ${admin.id}`,
    );
    await expectWithdrawn(token, secondAccount.cookie, shop.id);
    const [row] = await rows(
      sql`select accepted_at from business_invitations where invited_by = ${admin.id}`,
    );
    expect(row!.accepted_at).toBeNull();
    // Promoted again, their invitation counts again (it was never spent).
    await app.database.db.execute(
      sql`update business_members set role = 'admin' where merchant_id = ${shop.id} and user_id = ${admin.id}`,
    );
    expect((await call("POST", `/api/invitations/${token}/accept`, secondAccount.cookie)).statusCode).toBe(
      200,
    );
  });

  /**
   * Demotes `adminId` to staff in a transaction that takes their membership row, holds it until `request` is seen
   * waiting on a lock (pg_locks), then withdraws their invitations and commits, as `changeRole` does.
   */
  async function raceWithDemotion(shopId: string, adminId: string, request: () => Promise<Res>) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let markLocked!: () => void;
    const locked = new Promise<void>((resolve) => {
      markLocked = resolve;
    });
    const demotion = app.database.db.transaction(async (tx) => {
      await tx.execute(
        sql`update business_members set role = 'staff' where merchant_id = ${shopId} and user_id = ${adminId}`,
      );
      markLocked();
      await held;
      await tx.execute(sql`update business_invitations set revoked_at = now()
        where invited_by = ${adminId} and accepted_at is null and revoked_at is null`);
    });
    await locked;
    const response = request();
    const deadline = Date.now() + 30_000;
    try {
      for (;;) {
        const waiting = await rows(sql`select 1 from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where not l.granted and a.datname = current_database()`);
        if (waiting.length > 0) break;
        if (Date.now() > deadline) throw new Error("the request never waited for the demotion's row lock");
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      release();
      await demotion;
    }
    return response;
  }

  it.runIf(process.env.DATABASE_URL)(
    "a demotion racing the accept cannot slip between the role check and the membership insert",
    async () => {
      const { shop, admin, token, secondAccount } = await adminInvitesThemself();
      const accepted = await raceWithDemotion(shop.id, admin.id, () =>
        call("POST", `/api/invitations/${token}/accept`, secondAccount.cookie),
      );
      expectError(accepted, 410, "GONE");
      expectError(await call("GET", "/api/merchant", secondAccount.cookie), 404, "NOT_FOUND");
    },
  );

  it.runIf(process.env.DATABASE_URL)(
    "a demotion racing a new invitation: the invitation is not written behind the withdrawal",
    async () => {
      const shop = await createMerchant(app, { name: "Key Cutter" });
      const admin = await join(shop.cookie, "admin");
      const sent = await raceWithDemotion(shop.id, admin.id, () =>
        call("POST", "/api/merchant/team/invitations", admin.cookie, { email: email(), role: "admin" }),
      );
      expectError(sent, 403, "FORBIDDEN");
      expect(
        await rows(
          sql`select id from business_invitations where invited_by = ${admin.id} and revoked_at is null`,
        ),
      ).toEqual([]);
    },
  );
});

describe("required two-factor sign-in", () => {
  it("refuses a member without a second factor on the business's routes until they enrol", async () => {
    const shop = await createMerchant(app, { name: "Tea House" });
    const staff = await join(shop.cookie, "staff");
    // The owner enrols TOTP, then requires it.
    const setup = await call("POST", "/api/user/two-factor/totp", shop.cookie, {});
    const secret = setup.json().secret as string;
    expect(
      (
        await call("POST", "/api/user/two-factor/totp/confirm", shop.cookie, {
          code: totpAt(secret, Date.now()),
        })
      ).statusCode,
    ).toBe(200);
    const required = await call("PUT", "/api/merchant/require-two-factor", shop.cookie, {
      requireTwoFactor: true,
    });
    expect(required.statusCode, required.body).toBe(200);

    expectError(await call("GET", "/api/merchant/payments", staff.cookie), 403, "TWO_FACTOR_REQUIRED");
    expectError(await call("GET", "/api/merchant", staff.cookie), 403, "TWO_FACTOR_REQUIRED");
    expect((await call("GET", "/api/merchant", shop.cookie)).statusCode).toBe(200);

    const own = await call("POST", "/api/user/two-factor/totp", staff.cookie, {});
    const staffSecret = own.json().secret as string;
    expect(
      (
        await call("POST", "/api/user/two-factor/totp/confirm", staff.cookie, {
          code: totpAt(staffSecret, Date.now()),
        })
      ).statusCode,
    ).toBe(200);
    expect((await call("GET", "/api/merchant/payments", staff.cookie)).statusCode).toBe(200);
  });
});

describe("the audit log", () => {
  it("records team actions in the same transaction, and shows them to owners and admins", async () => {
    const shop = await createMerchant(app, { name: "Bakery" });
    const address = email();
    const { invitation, token } = await invite(shop.cookie, address, "staff");
    const member = await signUp(app);
    expect((await call("POST", `/api/invitations/${token}/accept`, member.cookie)).statusCode).toBe(200);
    const memberId = (await call("GET", "/api/user", member.cookie)).json().id as string;
    expect(
      (await call("PATCH", `/api/merchant/team/members/${memberId}`, shop.cookie, { role: "admin" }))
        .statusCode,
    ).toBe(200);
    const revoked = await invite(shop.cookie, email(), "staff");
    expect(
      (await call("DELETE", `/api/merchant/team/invitations/${revoked.invitation.id}`, shop.cookie))
        .statusCode,
    ).toBe(204);
    expect((await call("DELETE", `/api/merchant/team/members/${memberId}`, shop.cookie)).statusCode).toBe(
      204,
    );

    const events = await call("GET", "/api/merchant/audit-events", shop.cookie);
    const actions = (events.json().items as { action: string }[]).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        "member.invited",
        "member.joined",
        "member.role_changed",
        "invitation.revoked",
        "member.removed",
      ]),
    );
    const invited = await rows(
      sql`select metadata from audit_events where target = ${invitation.id} and action = 'member.invited'`,
    );
    expect(invited[0]!.metadata).toEqual({ email: address, role: "staff" });
    expect(JSON.stringify(invited)).not.toContain(token);

    // A refused action writes neither the change nor its audit row: an accept that fails (already a member).
    const again = await invite(shop.cookie, email(), "staff");
    const { token: secondToken } = again;
    const dup = await call("POST", `/api/invitations/${secondToken}/accept`, shop.cookie);
    expectError(dup, 409, "CONFLICT");
    const joined = await rows(
      sql`select count(*)::int as n from audit_events where business_id = ${shop.id} and action = 'member.joined'`,
    );
    expect(joined[0]!.n).toBe(1);
    const [stillOpen] = await rows(
      sql`select accepted_at from business_invitations where id = ${again.invitation.id}`,
    );
    expect(stillOpen!.accepted_at).toBeNull();
  });
});
