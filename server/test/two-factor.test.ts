import { CHALLENGE_RESPONSE_HEADER, CHALLENGE_TOKEN_HEADER } from "@common/challenge.ts";
import { SIWE_SIGN_IN_STATEMENT } from "@common/siwe.ts";
import { eq, sql } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, describe, expect, it } from "vitest";
import { loadSocialConfig } from "../src/config-social.ts";
import { passkeys, sessions, users, userTotp } from "../src/db/schema.ts";
import { createId, createToken } from "../src/lib/ids.ts";
import { MemorySharedState } from "../src/lib/shared-state/memory-shared-state.ts";
import { createLoginThrottle } from "../src/modules/auth/login-throttle.ts";
import { insertEmailToken } from "../src/modules/auth/repository.ts";
import { hashToken } from "../src/modules/auth/session.ts";
import { base32Encode, hotp, matchTotp, timeStep, totpAt } from "../src/modules/two-factor/totp.ts";
import { createTestApp } from "./helpers.ts";
import { startMailCapture } from "./mail-capture.ts";
import { createSoftAuthenticator } from "./soft-authenticator.ts";
import { solve } from "./solve-equation.ts";

const DOMAIN = "pay.example.test";
const ORIGIN = `https://${DOMAIN}`;
const generous = { limit: 100_000, windowMs: 60_000 };
const mail = await startMailCapture();
afterAll(() => mail.close());
// The site's name is not a loopback one: the development sign-in page is turned on by name.
const dev = loadSocialConfig({ SOCIAL_DEV_LOGIN: "true" }, "development", {
  publicUrl: ORIGIN,
  host: "127.0.0.1",
});
const app = await createTestApp(
  {
    publicUrl: ORIGIN,
    smtpUrl: mail.url,
    social: dev.social,
    wallet: { ...dev.wallet, masterSeed: `0x${"33".repeat(32)}` },
    rateLimits: {
      general: generous,
      auth: generous,
      contact: generous,
      claim: generous,
      public: generous,
      verify: generous,
      api: generous,
    },
  },
  {
    loginThrottle: createLoginThrottle(new MemorySharedState(), {
      perAccount: 5,
      perIp: 1000,
      windowMs: 60_000,
      firstDelayMs: 30_000,
    }),
  },
);
const db = app.database.db;
const PASSWORD = "correct horse battery staple";
let counter = 0;
const unique = (prefix = "tf") => `${prefix}${Date.now().toString(36)}${counter++}`;

type Reply = Awaited<ReturnType<typeof app.inject>>;
const cookieOf = (res: Reply, name: string) => res.cookies.find((c) => c.name === name && c.value)?.value;
const session = (res: Reply) => {
  const value = cookieOf(res, "cpxtb_session");
  return value ? `cpxtb_session=${value}` : undefined;
};
const pendingCookie = (res: Reply) => `cpxtb_2fa=${cookieOf(res, "cpxtb_2fa")}`;

function post(url: string, payload: unknown = {}, cookie?: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: "POST",
    url,
    payload: payload as object,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
}
const get = (url: string, cookie?: string) =>
  app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });

async function register() {
  const username = unique();
  const res = await post("/api/register", { username, password: PASSWORD });
  expect(res.statusCode, res.body).toBe(201);
  return { username, cookie: session(res)!, id: res.json().id as string };
}

/** Enrols TOTP for a signed-in user: the secret from the set-up answer, confirmed with the current code. */
async function enrolTotp(cookie: string) {
  const setup = await post("/api/user/two-factor/totp", {}, cookie);
  expect(setup.statusCode, setup.body).toBe(200);
  expect(setup.headers["cache-control"]).toBe("no-store");
  const { secret, uri } = setup.json() as { secret: string; uri: string };
  const confirmed = await post(
    "/api/user/two-factor/totp/confirm",
    { code: totpAt(secret, Date.now()) },
    cookie,
  );
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, uri, recoveryCodes: confirmed.json().recoveryCodes as string[] };
}

/** A code of the next time step (the current one was spent by the enrolment); inside the ±1 window. */
const nextCode = (secret: string) => totpAt(secret, Date.now() + 30_000);

const login = (username: string) => post("/api/login", { username, password: PASSWORD });

describe("TOTP (RFC 6238)", () => {
  // Appendix B of RFC 6238: the ASCII seeds of each algorithm, 8 digits.
  const seed1 = Buffer.from("12345678901234567890");
  const seed256 = Buffer.from("12345678901234567890123456789012");
  const seed512 = Buffer.from("1234567890123456789012345678901234567890123456789012345678901234");
  const vectors: [number, string, string, string][] = [
    [59, "94287082", "46119246", "90693936"],
    [1111111109, "07081804", "68084774", "25091201"],
    [1111111111, "14050471", "67062674", "99943326"],
    [1234567890, "89005924", "91819424", "93441116"],
    [2000000000, "69279037", "90698825", "38618901"],
    [20000000000, "65353130", "77737706", "47863826"],
  ];
  it.each(vectors)("at %i s gives the RFC's codes", (seconds, sha1, sha256, sha512) => {
    const step = timeStep(seconds * 1000);
    expect(hotp(seed1, step, 8, "sha1")).toBe(sha1);
    expect(hotp(seed256, step, 8, "sha256")).toBe(sha256);
    expect(hotp(seed512, step, 8, "sha512")).toBe(sha512);
  });

  it("uses 6 digits, accepts one step of drift either way, and never the same step twice", () => {
    const secret = base32Encode(seed1);
    expect(totpAt(secret, 59_000)).toBe("287082");
    const now = 1_111_111_111_000;
    const step = timeStep(now);
    expect(matchTotp(secret, totpAt(secret, now), now, null)).toBe(step);
    expect(matchTotp(secret, totpAt(secret, now - 30_000), now, null)).toBe(step - 1);
    expect(matchTotp(secret, totpAt(secret, now + 30_000), now, null)).toBe(step + 1);
    expect(matchTotp(secret, totpAt(secret, now + 60_000), now, null)).toBeNull();
    expect(matchTotp(secret, totpAt(secret, now - 60_000), now, null)).toBeNull();
    // Once a step is used, it and every earlier one are refused.
    expect(matchTotp(secret, totpAt(secret, now), now, step)).toBeNull();
    expect(matchTotp(secret, totpAt(secret, now - 30_000), now, step)).toBeNull();
    expect(matchTotp(secret, "12345", now, null)).toBeNull();
  });
});

describe("enrolment", () => {
  it("shows the secret once, confirms with a code, issues 10 recovery codes and keeps the secret encrypted", async () => {
    const { cookie, id, username } = await register();
    const before = (await get("/api/user/two-factor", cookie)).json();
    expect(before).toMatchObject({ totpEnabled: false, recoveryCodesLeft: 0, passkeys: [] });

    const setup = await post("/api/user/two-factor/totp", {}, cookie);
    const { secret, uri } = setup.json() as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toBe(
      `otpauth://totp/CPXTB%20Pay%3A${username}?secret=${secret}&issuer=CPXTB+Pay&algorithm=SHA1&digits=6&period=30`,
    );
    const wrong = await post(
      "/api/user/two-factor/totp/confirm",
      { code: "000000" === totpAt(secret, Date.now()) ? "111111" : "000000" },
      cookie,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe("VALIDATION_ERROR");
    const bad = await post("/api/user/two-factor/totp/confirm", { code: "12ab" }, cookie);
    expect(bad.statusCode).toBe(400);

    const ok = await post("/api/user/two-factor/totp/confirm", { code: totpAt(secret, Date.now()) }, cookie);
    expect(ok.statusCode, ok.body).toBe(200);
    const codes = ok.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const after = (await get("/api/user/two-factor", cookie)).json();
    expect(after).toMatchObject({ totpEnabled: true, recoveryCodesLeft: 10 });
    expect(JSON.stringify(after)).not.toContain(secret);
    // A second set-up is refused while one is on; the secret is never shown again.
    const again = await post("/api/user/two-factor/totp", {}, cookie);
    expect(again.statusCode).toBe(409);
    expect(again.body).not.toContain(secret);

    const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, id));
    expect(row!.secretEncrypted).not.toContain(secret);
    expect(row!.secretEncrypted).toMatch(/^v1\./);
    const stored = await db.execute(sql`select code_hash from recovery_codes where user_id = ${id}`);
    const hashes = JSON.stringify(stored);
    for (const code of codes) expect(hashes).not.toContain(code);
  });

  it("refuses the set-up signed out", async () => {
    const res = await post("/api/user/two-factor/totp");
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe("UNAUTHENTICATED");
  });
});

describe("signing in with a second factor", () => {
  it("starts no session until the code is given, then signs in; the same code is refused the next time", async () => {
    const { username, cookie } = await register();
    const { secret } = await enrolTotp(cookie);

    const first = await login(username);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ twoFactorRequired: true, methods: ["totp", "recovery"] });
    expect(session(first)).toBeUndefined();
    expect(cookieOf(first, "cpxtb_2fa")).toBeTruthy();
    const pending = pendingCookie(first);
    // The pending cookie is not a session.
    expect((await get("/api/user", pending)).statusCode).toBe(401);
    expect((await get("/api/login/second-factor", pending)).json()).toMatchObject({
      twoFactorRequired: true,
    });

    const code = nextCode(secret);
    const done = await post("/api/login/second-factor", { code }, pending);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().username).toBe(username);
    const signedIn = session(done)!;
    expect((await get("/api/user", signedIn)).json().username).toBe(username);
    // The pending sign-in is spent.
    expect((await post("/api/login/second-factor", { code }, pending)).statusCode).toBe(401);

    // Each code works once, even in a new sign-in.
    const second = await login(username);
    const reused = await post("/api/login/second-factor", { code }, pendingCookie(second));
    expect(reused.statusCode).toBe(401);
    expect(session(reused)).toBeUndefined();
  });

  it("counts a wrong code as a failed sign-in: the pending sign-in ends, then the challenge is required", async () => {
    const { username, cookie } = await register();
    await enrolTotp(cookie);
    const remoteAddress = "203.0.113.77";
    const started = await login(username);
    const pending = pendingCookie(started);
    for (let i = 0; i < 4; i++) {
      const wrong = await post("/api/login/second-factor", { code: "000001" }, pending);
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error.message).toMatch(/not correct/);
    }
    const last = await post("/api/login/second-factor", { code: "000001" }, pending);
    expect(last.statusCode).toBe(401);
    expect(last.json().error.message).toMatch(/Too many wrong codes/);
    expect(
      (await post("/api/login/second-factor", { code: "000001" }, pending)).json().error.message,
    ).toMatch(/expired/);

    // Five failures (the throttle's threshold here): the right password now needs a solved challenge.
    const fromOwner = (url: string, payload: object, cookie?: string) =>
      app.inject({ method: "POST", url, payload, remoteAddress, headers: cookie ? { cookie } : {} });
    const again = await fromOwner("/api/login", { username, password: PASSWORD });
    expect(again.statusCode).toBe(429);
    expect(again.json().challenge).toMatchObject({ token: expect.any(String) });
    const challenge = again.json().challenge as { token: string; equation: string };
    const solved = await app.inject({
      url: "/api/verify-challenge",
      remoteAddress,
      headers: {
        [CHALLENGE_TOKEN_HEADER]: challenge.token,
        [CHALLENGE_RESPONSE_HEADER]: String(solve(challenge.equation)),
      },
    });
    expect(solved.statusCode, solved.body).toBe(200);
    const retried = await fromOwner("/api/login", { username, password: PASSWORD });
    expect(retried.json()).toMatchObject({ twoFactorRequired: true });
    // The code step is throttled too: with no solved challenge left, a code attempt gets the challenge (429).
    const code = await fromOwner("/api/login/second-factor", { code: "000002" }, pendingCookie(retried));
    expect(code.statusCode).toBe(429);
    expect(code.json().challenge).toBeTruthy();

    // Audit: the failed attempts are recorded for the account.
    const rows = await db.execute(
      sql`select count(*)::int as n from audit_events a join users u on u.id = a.user_id where u.username = ${username} and a.action = 'auth.sign_in_failed'`,
    );
    expect(JSON.stringify(rows)).toMatch(/"n":5/);
  });

  it("accepts each recovery code once", async () => {
    const { username, cookie } = await register();
    const { recoveryCodes } = await enrolTotp(cookie);
    const code = recoveryCodes[3]!;
    const first = await login(username);
    // Upper case and without the dash is the same code.
    const used = await post(
      "/api/login/second-factor",
      { code: code.toUpperCase().replace("-", " ") },
      pendingCookie(first),
    );
    expect(used.statusCode, used.body).toBe(200);
    const signedIn = session(used)!;
    expect((await get("/api/user/two-factor", signedIn)).json().recoveryCodesLeft).toBe(9);

    const second = await login(username);
    const reused = await post("/api/login/second-factor", { code }, pendingCookie(second));
    expect(reused.statusCode).toBe(401);
    const other = await post("/api/login/second-factor", { code: recoveryCodes[4]! }, pendingCookie(second));
    expect(other.statusCode).toBe(200);
  });

  it("refuses a code with no pending sign-in, and bad input with a 400", async () => {
    expect((await post("/api/login/second-factor", { code: "123456" })).statusCode).toBe(401);
    expect((await post("/api/login/second-factor", { code: "1" })).statusCode).toBe(400);
    expect((await post("/api/login/second-factor", { code: 123456 })).statusCode).toBe(400);
    expect((await post("/api/login/second-factor", { code: "x".repeat(100) })).statusCode).toBe(400);
  });

  it("a pending sign-in expires after five minutes", async () => {
    const { username, cookie } = await register();
    const { secret } = await enrolTotp(cookie);
    const started = await login(username);
    const expiresAt = Date.parse(started.json().expiresAt);
    expect(expiresAt - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(started.cookies.find((c) => c.name === "cpxtb_2fa")).toMatchObject({
      httpOnly: true,
      maxAge: 300,
      path: "/api",
    });
    void secret;
  });
});

describe("no way around the second factor", () => {
  it("Sign-In with Ethereum asks for the code", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const siwe = async () => {
      const nonce = (await get("/api/siwe/nonce")).json().nonce as string;
      const message = createSiweMessage({
        address: wallet.address,
        domain: DOMAIN,
        uri: ORIGIN,
        chainId: app.chain?.chainId ?? 31337,
        nonce,
        version: "1",
        statement: SIWE_SIGN_IN_STATEMENT,
        issuedAt: new Date(),
      });
      return post("/api/siwe/verify", { message, signature: await wallet.signMessage({ message }) });
    };
    const first = await siwe();
    expect(first.statusCode, first.body).toBe(200);
    const { secret } = await enrolTotp(session(first)!);
    const second = await siwe();
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ twoFactorRequired: true });
    expect(session(second)).toBeUndefined();
    const done = await post("/api/login/second-factor", { code: nextCode(secret) }, pendingCookie(second));
    expect(done.statusCode, done.body).toBe(200);
    expect(session(done)).toBeTruthy();
  });

  it("a social sign-in lands on the code step, without a session", async () => {
    const email = `${unique("s")}@example.com`;
    const social = async (redirectUrl = "/merchant") => {
      const begin = await app.inject({
        method: "GET",
        url: `/api/social-auth/google?redirectUrl=${encodeURIComponent(redirectUrl)}`,
        headers: { host: DOMAIN },
      });
      const state = new URL(begin.headers.location as string, ORIGIN).searchParams.get("state")!;
      const authorize = await app.inject({
        method: "GET",
        url: `/api/social-auth/google/dev/authorize?state=${state}&name=Sam&email=${encodeURIComponent(email)}`,
        headers: { host: DOMAIN },
      });
      return app.inject({
        method: "GET",
        url: authorize.headers.location as string,
        headers: { host: DOMAIN, cookie: `cpxtb_social_flow=${cookieOf(begin, "cpxtb_social_flow")}` },
      });
    };
    const first = await social();
    expect(first.statusCode, first.body).toBe(303);
    expect(first.headers.location).toBe(`${ORIGIN}/merchant`);
    const { secret } = await enrolTotp(session(first)!);
    const second = await social("/invitations/abc?x=1");
    expect(second.statusCode).toBe(303);
    // The return path survives the code step (the sign-in page goes there once the code is accepted).
    expect(second.headers.location).toBe(
      `${ORIGIN}/auth?twoFactor=required&next=${encodeURIComponent("/invitations/abc?x=1")}`,
    );
    expect(session(second)).toBeUndefined();
    const done = await post("/api/login/second-factor", { code: nextCode(secret) }, pendingCookie(second));
    expect(done.statusCode, done.body).toBe(200);
  });

  it("a password reset link replaces the password, not the second factor", async () => {
    const { username, cookie, id } = await register();
    await enrolTotp(cookie);
    await db
      .update(users)
      .set({ email: `${username}@example.com` })
      .where(eq(users.id, id));
    const token = createToken();
    await insertEmailToken(db, {
      id: createId("etk"),
      userId: id,
      purpose: "password_reset",
      tokenHash: hashToken(token),
      email: `${username}@example.com`,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const reset = await post("/api/reset-password", { token, password: "another horse battery staple" });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ twoFactorRequired: true });
    expect(session(reset)).toBeUndefined();
  });
});

/** Makes the user's sessions `minutes` old (no longer a recent sign-in past 10). */
async function age(cookie: string, minutes: number) {
  const user = (await get("/api/user", cookie)).json() as { id: string };
  await db
    .update(sessions)
    .set({ createdAt: new Date(Date.now() - minutes * 60_000) })
    .where(eq(sessions.userId, user.id));
  await app.sessionCache.changed(user.id, { ended: false });
}

/** Failed sign-in audit rows of the account: one per second factor (or re-authentication) actually checked. */
async function failedChecks(username: string): Promise<number> {
  const result = (await db.execute(
    sql`select count(*)::int as n from audit_events a join users u on u.id = a.user_id where u.username = ${username} and a.action = 'auth.sign_in_failed'`,
  )) as unknown as { rows: { n: number }[] } | { n: number }[];
  return (Array.isArray(result) ? result : result.rows)[0]!.n;
}

describe("weakening sign-in needs a recent sign-in", () => {
  it("an old session must give a current code; a recent one need not", async () => {
    const { cookie, username } = await register();
    const { secret, recoveryCodes } = await enrolTotp(cookie);
    await age(cookie, 11);
    expect((await get("/api/user/two-factor", cookie)).json().recentSignIn).toBe(false);

    const without = await post("/api/user/two-factor/totp/disable", {}, cookie);
    expect(without.statusCode).toBe(403);
    expect(without.json().error.message).toMatch(/enter a current code/);
    const wrong = await post("/api/user/two-factor/totp/disable", { code: "000003" }, cookie);
    expect(wrong.statusCode).toBe(403);
    const regenerated = await post("/api/user/two-factor/recovery-codes", { code: recoveryCodes[0] }, cookie);
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    expect(regenerated.json().recoveryCodes).toHaveLength(10);
    expect(regenerated.json().recoveryCodes).not.toContain(recoveryCodes[1]);

    const disabled = await post("/api/user/two-factor/totp/disable", { code: nextCode(secret) }, cookie);
    expect(disabled.statusCode, disabled.body).toBe(200);
    const status = (await get("/api/user/two-factor", cookie)).json();
    expect(status).toMatchObject({ totpEnabled: false, recoveryCodesLeft: 0 });
    // Signing in needs only the password again.
    const back = await login(username);
    expect(back.json().username).toBe(username);

    // A fresh sign-in may turn it off without a code.
    const fresh = await register();
    await enrolTotp(fresh.cookie);
    expect((await post("/api/user/two-factor/totp/disable", {}, fresh.cookie)).statusCode).toBe(200);
  });
});

describe("adding a second factor needs a recent sign-in or the password", () => {
  const reauth = (res: Reply) => res.json().error as { code: string; message: string; details: unknown };

  it("an old session cannot add the app or a passkey without the password (or a current code)", async () => {
    const { cookie, username } = await register();
    await age(cookie, 16);
    for (const url of ["/api/user/two-factor/totp", "/api/user/passkeys/options"]) {
      const refused = await post(url, {}, cookie);
      expect(refused.statusCode, url).toBe(403);
      expect(reauth(refused)).toMatchObject({
        code: "FORBIDDEN",
        message: "For your security, enter your password to add a second factor, or sign in again.",
        details: { reason: "REAUTH_REQUIRED", accepts: ["password"] },
      });
      // A code is no proof for an account that has no second factor yet.
      expect((await post(url, { code: "123456" }, cookie)).statusCode).toBe(403);
    }
    const wrong = await post("/api/user/two-factor/totp", { password: "not the password" }, cookie);
    expect(wrong.statusCode).toBe(403);
    expect(reauth(wrong).message).toBe("That password is not correct.");
    expect((await get("/api/user/two-factor", cookie)).json().totpEnabled).toBe(false);

    // With the password: the set-up goes on, and the confirmation needs only the code.
    const setup = await post("/api/user/two-factor/totp", { password: PASSWORD }, cookie);
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json() as { secret: string };
    const confirmed = await post(
      "/api/user/two-factor/totp/confirm",
      { code: totpAt(secret, Date.now()) },
      cookie,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    // Now a current code proves it too; without anything, both ways are named.
    const without = await post("/api/user/passkeys/options", {}, cookie);
    expect(reauth(without).details).toEqual({ reason: "REAUTH_REQUIRED", accepts: ["password", "code"] });
    const withCode = await post("/api/user/passkeys/options", { code: nextCode(secret) }, cookie);
    expect(withCode.statusCode, withCode.body).toBe(200);
    // The owner's own password sign-in still works (with the code they have).
    expect((await login(username)).json()).toMatchObject({ twoFactorRequired: true });
  });

  it("a recent sign-in adds without proof; an account without a password must sign in again", async () => {
    const fresh = await register();
    expect((await post("/api/user/passkeys/options", {}, fresh.cookie)).statusCode).toBe(200);
    expect((await post("/api/user/two-factor/totp", {}, fresh.cookie)).statusCode).toBe(200);

    const social = await app.inject({
      method: "GET",
      url: "/api/social-auth/google?redirectUrl=%2Fprofile",
      headers: { host: DOMAIN },
    });
    const state = new URL(social.headers.location as string, ORIGIN).searchParams.get("state")!;
    const authorize = await app.inject({
      method: "GET",
      url: `/api/social-auth/google/dev/authorize?state=${state}&name=Pat&email=${unique("p")}%40example.com`,
      headers: { host: DOMAIN },
    });
    const done = await app.inject({
      method: "GET",
      url: authorize.headers.location as string,
      headers: { host: DOMAIN, cookie: `cpxtb_social_flow=${cookieOf(social, "cpxtb_social_flow")}` },
    });
    const cookie = session(done)!;
    await age(cookie, 16);
    const refused = await post("/api/user/two-factor/totp", { password: "anything at all" }, cookie);
    expect(refused.statusCode).toBe(403);
    expect(reauth(refused)).toMatchObject({
      message: expect.stringMatching(/sign out and sign in again/),
      details: { reason: "REAUTH_REQUIRED", accepts: [] },
    });
  });

  it("a set-up left unconfirmed expires: its secret on a screen cannot be confirmed later", async () => {
    const { cookie, id } = await register();
    const setup = await post("/api/user/two-factor/totp", {}, cookie);
    const { secret } = setup.json() as { secret: string };
    await db
      .update(userTotp)
      .set({ createdAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(userTotp.userId, id));
    const late = await post(
      "/api/user/two-factor/totp/confirm",
      { code: totpAt(secret, Date.now()) },
      cookie,
    );
    expect(late.statusCode).toBe(410);
    expect(late.json().error.message).toMatch(/expired/);
  });
});

describe("the owner is emailed when a second factor changes", () => {
  it("app on, new recovery codes, passkey added and removed, app off: one email each", async () => {
    const { cookie, id, username } = await register();
    const email = `${unique("owner")}@example.com`;
    await db.update(users).set({ email }).where(eq(users.id, id));
    await app.sessionCache.changed(id, { ended: false });
    const mailsFor = () => mail.messages.filter((m) => m.to.includes(email));
    const waitForCount = async (n: number) => {
      const deadline = Date.now() + 20_000;
      while (mailsFor().length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(mailsFor()).toHaveLength(n);
      return mailsFor()[n - 1]!.raw;
    };

    const { secret } = await enrolTotp(cookie);
    let raw = await waitForCount(1);
    expect(raw).toContain("Subject: Your CPXTB Pay sign-in settings changed");
    expect(raw).toContain(
      `An authenticator app was set up as a second factor on the CPXTB Pay account "${username}"`,
    );
    expect(raw).toContain(`${ORIGIN}/profile#two-factor`);
    expect(raw).not.toContain(secret);

    const codes = await post("/api/user/two-factor/recovery-codes", {}, cookie);
    expect(codes.statusCode).toBe(200);
    raw = await waitForCount(2);
    expect(raw).toContain("New recovery codes were made");
    for (const code of codes.json().recoveryCodes as string[]) expect(raw).not.toContain(code);

    const authenticator = createSoftAuthenticator(DOMAIN, ORIGIN);
    const options = await post("/api/user/passkeys/options", {}, cookie);
    const created = await post(
      "/api/user/passkeys",
      { credential: authenticator.register(options.json()), name: "Shop laptop" },
      cookie,
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(await waitForCount(3)).toContain(
      `The passkey "Shop laptop" was added to the CPXTB Pay account "${username}"`,
    );
    const removed = await post(`/api/user/passkeys/${created.json().id}/remove`, {}, cookie);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await waitForCount(4)).toContain(
      `The passkey "Shop laptop" was removed from the CPXTB Pay account "${username}"`,
    );

    expect((await post("/api/user/two-factor/totp/disable", {}, cookie)).statusCode).toBe(200);
    expect(await waitForCount(5)).toContain("The authenticator app was turned off");
  });
});

describe("parallel guesses are counted before they are checked", () => {
  it("many wrong codes at once on one pending sign-in: at most five are checked", async () => {
    const { username, cookie } = await register();
    const { secret } = await enrolTotp(cookie);
    const pending = pendingCookie(await login(username));
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post("/api/login/second-factor", { code: String(100000 + i) }, pending),
      ),
    );
    expect(answers.every((a) => a.statusCode === 401)).toBe(true);
    expect(answers.filter((a) => /not correct/.test(a.json().error.message)).length).toBeLessThanOrEqual(4);
    expect(await failedChecks(username)).toBeLessThanOrEqual(5);
    // The pending sign-in is over: even the right code no longer opens it.
    const right = await post("/api/login/second-factor", { code: nextCode(secret) }, pending);
    expect(right.statusCode).toBe(401);
    expect(session(right)).toBeUndefined();
  });

  it("many wrong codes at once from an old session: at most five are checked", async () => {
    const { cookie } = await register();
    await enrolTotp(cookie);
    await age(cookie, 30);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post("/api/user/two-factor/totp/disable", { code: String(200000 + i) }, cookie),
      ),
    );
    const checked = answers.filter(
      (a) => a.statusCode === 403 && a.json().error.message === "That code is not correct.",
    );
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.statusCode === 429).length).toBeGreaterThanOrEqual(25);
    expect((await get("/api/user/two-factor", cookie)).json().totpEnabled).toBe(true);
  });
});

describe("requiring two-factor sign-in for the business", () => {
  it("is the owner's setting, needs their own second factor, and then keeps it from being turned off", async () => {
    const { createMerchant } = await import("./payment-helpers.ts");
    const merchant = await createMerchant(app);
    const cookie = merchant.cookie;
    const refused = await app.inject({
      method: "PUT",
      url: "/api/merchant/require-two-factor",
      payload: { requireTwoFactor: true },
      headers: { cookie },
    });
    expect(refused.statusCode).toBe(409);
    await enrolTotp(cookie);
    const on = await app.inject({
      method: "PUT",
      url: "/api/merchant/require-two-factor",
      payload: { requireTwoFactor: true },
      headers: { cookie },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect((await get("/api/user/two-factor", cookie)).json().requireTwoFactor).toBe(true);
    const disable = await post("/api/user/two-factor/totp/disable", {}, cookie);
    expect(disable.statusCode).toBe(409);
    expect(disable.json().error.message).toMatch(/requires two-factor/);
    // Without a business there is nothing to require.
    const { cookie: other } = await register();
    const none = await app.inject({
      method: "PUT",
      url: "/api/merchant/require-two-factor",
      payload: { requireTwoFactor: true },
      headers: { cookie: other },
    });
    expect(none.statusCode).toBe(404);
    const invalid = await app.inject({
      method: "PUT",
      url: "/api/merchant/require-two-factor",
      payload: { requireTwoFactor: "yes" },
      headers: { cookie },
    });
    expect(invalid.statusCode).toBe(400);
  });
});

describe("passkeys", () => {
  it("registers with a real attestation, then serves as a second factor and as a password-less sign-in", async () => {
    const { cookie, username, id } = await register();
    const authenticator = createSoftAuthenticator(DOMAIN, ORIGIN);
    const options = await post("/api/user/passkeys/options", {}, cookie);
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json()).toMatchObject({ rp: { id: DOMAIN, name: "CPXTB Pay" }, user: { name: username } });
    const created = await post(
      "/api/user/passkeys",
      { credential: authenticator.register(options.json()), name: "Laptop" },
      cookie,
    );
    expect(created.statusCode, created.body).toBe(201);
    // The first second factor comes with recovery codes.
    expect(created.json().recoveryCodes).toHaveLength(10);
    const [row] = await db.select().from(passkeys).where(eq(passkeys.userId, id));
    expect(row).toMatchObject({ credentialId: authenticator.id, name: "Laptop" });
    // The same challenge cannot register twice.
    const replay = await post(
      "/api/user/passkeys",
      { credential: authenticator.register(options.json()) },
      cookie,
    );
    expect(replay.statusCode).toBe(410);

    // As a second factor after the password.
    const started = await login(username);
    expect(started.json()).toMatchObject({ twoFactorRequired: true, methods: ["passkey", "recovery"] });
    const pending = pendingCookie(started);
    const assertOptions = await post("/api/passkeys/sign-in/options", {}, pending);
    expect(assertOptions.json().allowCredentials).toEqual([
      { id: authenticator.id, type: "public-key", transports: ["internal"] },
    ]);
    const assertion = authenticator.assert(assertOptions.json());
    const done = await post("/api/passkeys/sign-in", { credential: assertion }, pending);
    expect(done.statusCode, done.body).toBe(200);
    expect(session(done)).toBeTruthy();
    // A replayed assertion is refused.
    expect((await post("/api/passkeys/sign-in", { credential: assertion })).statusCode).toBe(410);

    // Password-less: any discoverable passkey; the user must have been verified.
    const bare = await post("/api/passkeys/sign-in/options");
    expect(bare.json().allowCredentials ?? []).toEqual([]);
    const unverified = await post("/api/passkeys/sign-in", {
      credential: authenticator.assert(bare.json(), { verified: false }),
    });
    expect(unverified.statusCode).toBe(401);
    const bare2 = await post("/api/passkeys/sign-in/options");
    const wrongOrigin = await post("/api/passkeys/sign-in", {
      credential: authenticator.assert(bare2.json(), { originOverride: "https://evil.example" }),
    });
    expect(wrongOrigin.statusCode).toBe(401);
    const bare3 = await post("/api/passkeys/sign-in/options");
    const direct = await post("/api/passkeys/sign-in", { credential: authenticator.assert(bare3.json()) });
    expect(direct.statusCode, direct.body).toBe(200);
    expect(direct.json().username).toBe(username);
    expect(session(direct)).toBeTruthy();

    // Another account's passkey is no second factor for this one.
    const other = await register();
    const otherKey = createSoftAuthenticator(DOMAIN, ORIGIN);
    await enrolTotp(other.cookie);
    const otherStart = await login(other.username);
    const otherOptions = await post("/api/passkeys/sign-in/options", {}, pendingCookie(otherStart));
    const foreign = await post(
      "/api/passkeys/sign-in",
      { credential: authenticator.assert(otherOptions.json()) },
      pendingCookie(otherStart),
    );
    expect(foreign.statusCode).toBe(401);
    void otherKey;

    // Removing it needs a recent sign-in (this session is recent).
    const status = (await get("/api/user/two-factor", cookie)).json();
    expect(status.passkeys).toHaveLength(1);
    const removed = await post(`/api/user/passkeys/${status.passkeys[0].id}/remove`, {}, cookie);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await get("/api/user/two-factor", cookie)).json()).toMatchObject({
      passkeys: [],
      recoveryCodesLeft: 0,
    });
    expect(
      (await post("/api/user/passkeys/pky_00000000000000000000000000/remove", {}, cookie)).statusCode,
    ).toBe(404);
    // An id of a shape no passkey has is as unknown as one none has (every :id route).
    expect((await post("/api/user/passkeys/nope/remove", {}, cookie)).statusCode).toBe(404);
  });

  it("refuses malformed credentials with a 4xx", async () => {
    const { cookie } = await register();
    expect((await post("/api/user/passkeys", { credential: { id: "x" } }, cookie)).statusCode).toBe(400);
    const options = await post("/api/user/passkeys/options", {}, cookie);
    const junk = {
      id: "abc",
      rawId: "abc",
      type: "public-key",
      response: { clientDataJSON: "not-json", attestationObject: "AAAA" },
    };
    void options;
    const res = await post("/api/user/passkeys", { credential: junk }, cookie);
    expect(res.statusCode).toBe(400);
    expect((await post("/api/passkeys/sign-in", { credential: junk })).statusCode).toBe(410);
  });
});
