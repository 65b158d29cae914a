import { CHALLENGE_RESPONSE_HEADER, CHALLENGE_TOKEN_HEADER } from "@common/challenge.ts";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { sessions } from "../src/db/schema.ts";
import { MemorySharedState } from "../src/lib/shared-state/memory-shared-state.ts";
import { openSharedState } from "../src/lib/shared-state/open-shared-state.ts";
import { createLoginThrottle } from "../src/modules/auth/login-throttle.ts";
import { createTestApp } from "./helpers.ts";
import { type CapturedMail, englishWordsIn, readMail, startMailCapture } from "./mail-capture.ts";
import { solve } from "./solve-equation.ts";

const mail = await startMailCapture();
afterAll(() => mail.close());
// The request rate limiter has its own tests; here it must not get in the way of many quick requests.
const generous = { limit: 100_000, windowMs: 60_000 };
const app = await createTestApp(
  {
    smtpUrl: mail.url,
    publicUrl: "https://pay.example.test",
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
      // Long enough that a busy machine cannot make the test's next attempt arrive after the wait.
      firstDelayMs: 30_000,
    }),
  },
);
const db = app.database.db;

let counter = 0;
const unique = (prefix = "user") => `${prefix}${Date.now().toString(36)}${counter++}`;
const PASSWORD = "correct horse battery staple";

type Reply = Awaited<ReturnType<typeof app.inject>>;
function sessionCookie(res: Reply): string | undefined {
  const cookie = res.cookies.find((c) => c.name === "cpxtb_session");
  return cookie?.value ? `cpxtb_session=${cookie.value}` : undefined;
}

function post(url: string, payload?: unknown, cookie?: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: "POST",
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
}

async function register(username = unique(), extra: Record<string, unknown> = {}) {
  const res = await post("/api/register", { username, password: PASSWORD, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return { username, cookie: sessionCookie(res)!, user: res.json() };
}

function me(cookie?: string) {
  return app.inject({ method: "GET", url: "/api/user", headers: cookie ? { cookie } : {} });
}

describe("register", () => {
  it("creates the account, signs it in with a safe cookie and returns the user", async () => {
    const username = unique("Ada_");
    const res = await post("/api/register", { username, password: PASSWORD });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      username,
      email: null,
      hasPassword: true,
      preferences: { theme: "dark" },
    });
    expect(res.json()).not.toHaveProperty("passwordHash");
    const cookie = res.cookies.find((c) => c.name === "cpxtb_session")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(cookie.maxAge).toBe(30 * 24 * 60 * 60);
    expect(cookie.value.length).toBeGreaterThanOrEqual(43);
    const current = await me(`cpxtb_session=${cookie.value}`);
    expect(current.statusCode).toBe(200);
    expect(current.json().username).toBe(username);
  });

  it("stores only a hash of the session token", async () => {
    const { cookie } = await register();
    const token = cookie.split("=")[1]!;
    const rows = await db.select().from(sessions);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it("refuses a username taken in another case", async () => {
    const { username } = await register();
    const res = await post("/api/register", { username: username.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: "CONFLICT",
      message: "That username is already taken. Choose another one.",
    });
  });

  it("refuses short, common and username-containing passwords", async () => {
    const cases: Array<[string, string]> = [
      ["short1234", "at least 10"],
      ["password123", "too common"],
      ["qwertyuiop", "too common"],
      ["aaaaaaaaaaaa", "single character"],
    ];
    for (const [password, message] of cases) {
      const res = await post("/api/register", { username: unique(), password });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().error.message, password).toContain(message);
    }
    const username = unique("mallory");
    const res = await post("/api/register", { username, password: `${username}-secret!` });
    expect(res.json().error.message).toContain("must not contain the username");
  });

  it("sends a verification link when an email is given, and verifies it once", async () => {
    const email = `${unique("ver")}@example.test`;
    const { cookie, user } = await register(undefined, { email });
    expect(user).toMatchObject({ email: null, pendingEmail: email });
    const message = await mail.waitFor(email);
    const link = message.raw.match(/https:\/\/pay\.example\.test\/api\/verify-email\?token=([A-Za-z0-9_-]+)/);
    expect(link).not.toBeNull();
    const url = `/api/verify-email?token=${link![1]}`;
    const first = await app.inject({ url });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe("/profile?email=verified");
    expect((await me(cookie)).json()).toMatchObject({ email, pendingEmail: null });
    const again = await app.inject({ url });
    expect(again.headers.location).toBe("/profile?email=invalid");
  });
});

describe("login and logout", () => {
  it("signs in by username in any case, with a new token each time", async () => {
    const { username, cookie: first } = await register();
    const res = await post("/api/login", { username: username.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe(username);
    const second = sessionCookie(res)!;
    expect(second).not.toBe(first);
    expect((await me(first)).statusCode).toBe(200);
    expect((await me(second)).statusCode).toBe(200);
  });

  it("answers a wrong password and an unknown user identically", async () => {
    const { username } = await register();
    const wrong = await post("/api/login", { username, password: "not the password" });
    const unknown = await post("/api/login", { username: unique("ghost"), password: "not the password" });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error.message).toBe("Incorrect username or password.");
    expect(sessionCookie(wrong)).toBeUndefined();
  });

  it("after many failed sign-ins asks for the challenge, never locks the owner out, and slows the guesser", async () => {
    const { username } = await register();
    const attacker = "10.20.0.1";
    const owner = "10.20.0.2";
    const login = (password: string, ip: string) =>
      app.inject({ method: "POST", url: "/api/login", payload: { username, password }, remoteAddress: ip });
    const solveFor = async (ip: string, challenge: { token: string; equation: string }) => {
      const res = await app.inject({
        url: "/api/verify-challenge",
        remoteAddress: ip,
        headers: {
          [CHALLENGE_TOKEN_HEADER]: challenge.token,
          [CHALLENGE_RESPONSE_HEADER]: String(solve(challenge.equation)),
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    for (let i = 0; i < 5; i++) expect((await login(`wrong-${i}-password`, attacker)).statusCode).toBe(401);

    // The owner, with the right password: a challenge, not a lockout; solved, the same request signs in.
    const challenged = await login(PASSWORD, owner);
    expect(challenged.statusCode).toBe(429);
    expect(challenged.json().error.code).toBe("RATE_LIMITED");
    expect(challenged.json().challenge).toMatchObject({ token: expect.any(String), level: 1 });
    await solveFor(owner, challenged.json().challenge);
    const signedIn = await login(PASSWORD, owner);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(sessionCookie(signedIn)).toBeDefined();

    // Five more failures bring the account back over the threshold: each guess costs a challenge...
    for (let i = 0; i < 5; i++) expect((await login(`again-${i}-password`, attacker)).statusCode).toBe(401);
    const guess = await login("one more wrong password", attacker);
    expect(guess.statusCode).toBe(429);
    await solveFor(attacker, guess.json().challenge);
    expect((await login("one more wrong password", attacker)).statusCode).toBe(401);
    // ...one solution is one attempt, and the guesser must now wait between failures.
    const slowed = await login("and another wrong one", attacker);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().challenge).toBeUndefined();
    expect(Number(slowed.headers["retry-after"])).toBeGreaterThan(0);
    // The wait in `details` too: the sign-in form says it in the reader's words (issue 37).
    expect(slowed.json().error.details).toEqual({
      reason: "sign_in_throttled",
      retryAfterSeconds: Number(slowed.headers["retry-after"]),
    });
    // The owner from their own address is still only asked for the challenge.
    const again = await login(PASSWORD, owner);
    expect(again.statusCode).toBe(429);
    await solveFor(owner, again.json().challenge);
    expect((await login(PASSWORD, owner)).statusCode).toBe(200);
  });

  it("signs out: the session is deleted and the cookie cleared", async () => {
    const { cookie } = await register();
    const res = await post("/api/logout", undefined, cookie);
    expect(res.statusCode).toBe(200);
    const cleared = res.cookies.find((c) => c.name === "cpxtb_session");
    expect(cleared?.value).toBe("");
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("answers GET /api/user with 401 in the error shape when signed out or with a forged cookie", async () => {
    for (const cookie of [undefined, "cpxtb_session=forged", `cpxtb_session=${"x".repeat(500)}`]) {
      const res = await me(cookie);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe("UNAUTHENTICATED");
    }
  });

  it("refuses an expired session and slides the expiry of a used one", async () => {
    const { cookie, user } = await register();
    const token = cookie.split("=")[1]!;
    const { createHash } = await import("node:crypto");
    const hash = createHash("sha256").update(token).digest("hex");
    // Seen two minutes ago: the next request extends the session and refreshes the cookie.
    const twoMinutesAgo = new Date(Date.now() - 2 * 60 * 1000);
    await db
      .update(sessions)
      .set({ lastSeenAt: twoMinutesAgo, expiresAt: new Date(Date.now() + 1000 * 60 * 60) })
      .where(eq(sessions.tokenHash, hash));
    const refreshed = await me(cookie);
    expect(refreshed.statusCode).toBe(200);
    expect(sessionCookie(refreshed)).toBe(cookie);
    const [extended] = await db.select().from(sessions).where(eq(sessions.tokenHash, hash));
    expect(extended!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 60 * 60 * 1000);
    // Expired: refused, and the browser told to drop the cookie. (The write goes around the app, so the test
    // forgets the app's cache of recent sessions itself, as the app's own session writes do.)
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hash));
    await app.sessionCache.changed(user.id, { ended: false });
    const expired = await me(cookie);
    expect(expired.statusCode).toBe(401);
    expect(expired.cookies.find((c) => c.name === "cpxtb_session")?.value).toBe("");
  });
});

describe("recent-session cache", () => {
  it("a cached session still ends at once on sign-out, revocation and password change", async () => {
    const { username, cookie } = await register();
    const other = sessionCookie(await post("/api/login", { username, password: PASSWORD }))!;
    // Both sessions are now cached by a first use.
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(200);
    const changed = await post(
      "/api/user/password",
      { currentPassword: PASSWORD, newPassword: "another long passphrase" },
      cookie,
    );
    expect(changed.statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(cookie)).statusCode).toBe(200);
    await post("/api/logout", undefined, cookie);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("a cached user reflects a profile change at once", async () => {
    const { cookie } = await register();
    expect((await me(cookie)).json().preferences.theme).toBe("dark");
    await app.inject({
      method: "PATCH",
      url: "/api/user/preferences",
      payload: { theme: "light" },
      headers: { cookie },
    });
    expect((await me(cookie)).json().preferences.theme).toBe("light");
  });
});

describe("CSRF", () => {
  it("refuses a state-changing request from another origin", async () => {
    const res = await post("/api/login", { username: "someone", password: PASSWORD }, undefined, {
      origin: "https://evil.example",
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("FORBIDDEN");
  });

  it("accepts the request from its own origin and from PUBLIC_URL", async () => {
    const { username } = await register();
    for (const origin of ["http://localhost:80", "https://pay.example.test"]) {
      const res = await post("/api/login", { username, password: PASSWORD }, undefined, {
        origin,
        host: "localhost:80",
      });
      expect(res.statusCode, origin).toBe(200);
    }
  });

  it("refuses a cross-site form post even without a body", async () => {
    const { cookie } = await register();
    const res = await app.inject({
      method: "POST",
      url: "/api/logout",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.statusCode).toBe(415);
    expect((await me(cookie)).statusCode).toBe(200);
  });
});

describe("password reset", () => {
  async function userWithVerifiedEmail(extra: Record<string, unknown> = {}) {
    const email = `${unique("reset")}@example.test`;
    const account = await register(undefined, { email, ...extra });
    const message = await mail.waitFor(email);
    const token = message.raw.match(/verify-email\?token=([A-Za-z0-9_-]+)/)![1];
    await app.inject({ url: `/api/verify-email?token=${token}` });
    return { ...account, email };
  }

  /** Asks for a reset of `email` (as a visitor not signed in) and returns the email that arrives. */
  async function resetEmail(email: string, headers: Record<string, string> = {}): Promise<CapturedMail> {
    const before = mail.messages.length;
    const res = await post("/api/forgot-password", { email }, undefined, headers);
    expect(res.statusCode).toBe(200);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const found = mail.messages
        .slice(before)
        .find((m) => m.to.includes(email) && m.raw.includes("reset-password"));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("no reset email");
  }

  async function resetLink(email: string, headers: Record<string, string> = {}) {
    const found = await resetEmail(email, headers);
    return found.raw.match(/https:\/\/pay\.example\.test\/reset-password\?token=([A-Za-z0-9_-]+)/)![1]!;
  }

  it("answers the same whether or not the email exists", async () => {
    const { email } = await userWithVerifiedEmail();
    const known = await post("/api/forgot-password", { email });
    const unknown = await post("/api/forgot-password", { email: `${unique("nobody")}@example.test` });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
  });

  it("sets a new password once, ends every session and signs in", async () => {
    const { email, username, cookie: oldSession } = await userWithVerifiedEmail();
    const token = await resetLink(email);
    expect((await post("/api/reset-password/check", { token })).json()).toEqual({ valid: true });
    const newPassword = "a completely new passphrase";
    const res = await post("/api/reset-password", { token, password: newPassword });
    expect(res.statusCode, res.body).toBe(200);
    expect(sessionCookie(res)).toBeDefined();
    expect((await me(oldSession)).statusCode).toBe(401);
    expect((await post("/api/login", { username, password: PASSWORD })).statusCode).toBe(401);
    expect((await post("/api/login", { username, password: newPassword })).statusCode).toBe(200);
    const reused = await post("/api/reset-password", { token, password: "yet another passphrase" });
    expect(reused.statusCode).toBe(410);
    expect(reused.json().error.message).toContain("already been used");
    expect((await post("/api/reset-password/check", { token })).json()).toEqual({
      valid: false,
      reason: "used",
    });
  });

  it("links to the public origin whatever Host or X-Forwarded-Host the request names", async () => {
    const { email } = await userWithVerifiedEmail();
    // resetLink only finds a link to https://pay.example.test (PUBLIC_URL).
    const token = await resetLink(email, { host: "evil.example", "x-forwarded-host": "evil.example" });
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(mail.messages.some((m) => m.raw.includes("evil.example"))).toBe(false);
  });

  it("a reset or a password change voids every other reset link still out", async () => {
    const { email, username } = await userWithVerifiedEmail();
    const first = await resetLink(email);
    const second = await resetLink(email);
    const used = await post("/api/reset-password", { token: first, password: "a completely new passphrase" });
    expect(used.statusCode, used.body).toBe(200);
    expect((await post("/api/reset-password/check", { token: second })).json()).toEqual({
      valid: false,
      reason: "used",
    });
    expect(
      (await post("/api/reset-password", { token: second, password: "the attacker's pick 9" })).statusCode,
    ).toBe(410);

    const third = await resetLink(email);
    const signedIn = await post("/api/login", { username, password: "a completely new passphrase" });
    const changed = await post(
      "/api/user/password",
      { currentPassword: "a completely new passphrase", newPassword: "another fresh passphrase" },
      sessionCookie(signedIn),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await post("/api/reset-password/check", { token: third })).json()).toMatchObject({
      valid: false,
    });
  });

  it("refuses an expired link", async () => {
    const { email } = await userWithVerifiedEmail();
    const token = await resetLink(email);
    await db.execute(
      sql`update email_tokens set expires_at = now() - interval '1 second' where purpose = 'password_reset'`,
    );
    const res = await post("/api/reset-password", { token, password: "a completely new passphrase" });
    expect(res.statusCode).toBe(410);
    expect(res.json().error.message).toContain("expired");
  });

  it("refuses an unknown link", async () => {
    const res = await post("/api/reset-password", {
      token: "x".repeat(43),
      password: "a completely new passphrase",
    });
    expect(res.statusCode).toBe(410);
    expect(res.json().error.message).toContain("not valid");
  });

  it("is written in the account's language, whatever language the page it was asked on speaks (issue 37)", async () => {
    // Registered from a German browser: the language is kept with the account, and its emails are German.
    const { email, username } = await userWithVerifiedEmail({ locale: "de-DE" });
    const confirm = readMail(await mail.waitFor(email));
    expect(confirm.subject).toBe("Bestätigen Sie Ihre E-Mail-Adresse für CPXTB Pay");
    expect(englishWordsIn(confirm.text)).toEqual([]);

    // Asked for from a Turkish page (someone else's computer): still the account's German.
    const reset = readMail(await resetEmail(email, { "accept-language": "tr-TR,tr;q=0.9" }));
    expect(reset.subject).toBe("Ihr Passwort für CPXTB Pay zurücksetzen");
    const sentences = [
      `Jemand hat angefordert, das Passwort des Kontos „${username}“ bei CPXTB Pay zurückzusetzen.`,
      "Öffnen Sie diesen Link innerhalb einer Stunde, um ein neues Passwort festzulegen (er funktioniert nur einmal):",
      "Falls Sie das nicht waren, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.",
    ];
    for (const sentence of sentences) {
      expect(reset.text).toContain(sentence);
      expect(reset.html).toContain(`<p>${sentence}</p>`);
    }
    expect(reset.text).toMatch(/^https:\/\/pay\.example\.test\/reset-password\?token=[A-Za-z0-9_-]+$/m);
    expect(reset.html).toContain('<html lang="de" dir="ltr">');
    expect(englishWordsIn(`${reset.subject}\n${reset.text}\n${reset.html}`)).toEqual([]);
  });

  it("for an account with no language, is written in the asking page's language, else in English", async () => {
    const { email, username } = await userWithVerifiedEmail();
    // The language menu's choice (the cookie) first, then the browser's languages.
    const turkish = readMail(await resetEmail(email, { cookie: "cpxtb_lang=tr", "accept-language": "de" }));
    expect(turkish.subject).toBe("CPXTB Pay şifrenizi sıfırlayın");
    expect(turkish.text).toContain(
      `Birisi “${username}” adlı CPXTB Pay hesabının şifresini sıfırlamak istedi.`,
    );
    expect(turkish.text).toContain("bu linki 1 saat içinde açın");
    expect(turkish.html).toContain('<html lang="tr" dir="ltr">');
    expect(englishWordsIn(`${turkish.subject}\n${turkish.text}\n${turkish.html}`)).toEqual([]);

    const portuguese = readMail(await resetEmail(email, { "accept-language": "ja, pt-PT;q=0.8, en;q=0.5" }));
    expect(portuguese.subject).toBe("Redefina sua senha do CPXTB Pay");

    const english = readMail(await resetEmail(email));
    expect(english.subject).toBe("Reset your CPXTB Pay password");
    expect(english.text).toContain(
      `Someone asked to reset the password of the CPXTB Pay account "${username}".\n\nOpen this link within one hour to choose a new password (it works once):`,
    );
    expect(english.html).toContain('<html lang="en" dir="ltr">');
  });

  it("sends no link to an unverified email", async () => {
    const email = `${unique("unverified")}@example.test`;
    await register(undefined, { email });
    await mail.waitFor(email);
    const before = mail.messages.length;
    await post("/api/forgot-password", { email });
    await new Promise((r) => setTimeout(r, 300));
    expect(mail.messages.slice(before).filter((m) => m.to.includes(email))).toHaveLength(0);
  });
});

describe("profile and settings", () => {
  it("changes the username, refusing one that is taken", async () => {
    const { cookie } = await register();
    const { username: taken } = await register();
    const fresh = unique("renamed");
    const ok = await app.inject({
      method: "PATCH",
      url: "/api/user/username",
      payload: { username: fresh },
      headers: { cookie },
    });
    expect(ok.json().username).toBe(fresh);
    const clash = await app.inject({
      method: "PATCH",
      url: "/api/user/username",
      payload: { username: taken },
      headers: { cookie },
    });
    expect(clash.statusCode).toBe(409);
  });

  it("changes the password with the current one and ends the other sessions", async () => {
    const { username, cookie } = await register();
    const other = sessionCookie(await post("/api/login", { username, password: PASSWORD }))!;
    const wrong = await post(
      "/api/user/password",
      { currentPassword: "not it at all", newPassword: "a brand new passphrase" },
      cookie,
    );
    expect(wrong.statusCode).toBe(403);
    const ok = await post(
      "/api/user/password",
      { currentPassword: PASSWORD, newPassword: "a brand new passphrase" },
      cookie,
    );
    expect(ok.statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
  });

  it("lists sessions, revokes one, and signs out everywhere", async () => {
    const { username, cookie } = await register();
    const second = sessionCookie(
      await post("/api/login", { username, password: PASSWORD }, undefined, {
        "user-agent": "Phone Browser/1.0",
      }),
    )!;
    const list = await app.inject({ url: "/api/user/sessions", headers: { cookie } });
    const { sessions: rows } = list.json();
    expect(rows).toHaveLength(2);
    expect(rows.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const phone = rows.find((s: { device: string }) => s.device === "Phone Browser/1.0");
    expect(phone).toBeDefined();
    const revoke = await app.inject({
      method: "DELETE",
      url: `/api/user/sessions/${phone.id}`,
      headers: { cookie },
    });
    expect(revoke.statusCode).toBe(200);
    expect((await me(second)).statusCode).toBe(401);
    const notMine = await app.inject({
      method: "DELETE",
      url: "/api/user/sessions/ses_nope",
      headers: { cookie },
    });
    expect(notMine.statusCode).toBe(404);
    const third = sessionCookie(await post("/api/login", { username, password: PASSWORD }))!;
    const everywhere = await app.inject({ method: "DELETE", url: "/api/user/sessions", headers: { cookie } });
    expect(everywhere.statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
    expect((await me(third)).statusCode).toBe(401);
  });

  it("cannot revoke another user's session", async () => {
    const alice = await register();
    const bob = await register();
    const bobSessions = (
      await app.inject({ url: "/api/user/sessions", headers: { cookie: bob.cookie } })
    ).json();
    const res = await app.inject({
      method: "DELETE",
      url: `/api/user/sessions/${bobSessions.sessions[0].id}`,
      headers: { cookie: alice.cookie },
    });
    expect(res.statusCode).toBe(404);
    expect((await me(bob.cookie)).statusCode).toBe(200);
  });

  it("saves preferences", async () => {
    const { cookie } = await register();
    const res = await app.inject({
      method: "PATCH",
      url: "/api/user/preferences",
      payload: { theme: "light", notifyPaymentEmails: false },
      headers: { cookie },
    });
    expect(res.json().preferences).toEqual({ theme: "light", notifyPaymentEmails: false });
    const empty = await app.inject({
      method: "PATCH",
      url: "/api/user/preferences",
      payload: {},
      headers: { cookie },
    });
    expect(empty.statusCode).toBe(400);
  });

  it("requires a session for every profile route", async () => {
    const routes: Array<[string, string, unknown?]> = [
      ["PATCH", "/api/user/username", { username: "someone" }],
      ["POST", "/api/user/email", { email: "a@example.test" }],
      ["POST", "/api/user/password", { currentPassword: "x", newPassword: "a brand new passphrase" }],
      ["PATCH", "/api/user/preferences", { theme: "light" }],
      ["GET", "/api/user/sessions"],
      ["DELETE", "/api/user/sessions"],
      ["DELETE", "/api/user/sessions/ses_x"],
    ];
    for (const [method, url, payload] of routes) {
      const res = await app.inject({
        method: method as "GET",
        url,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe("malformed input", () => {
  const bodies: unknown[] = [
    null,
    [],
    "string",
    42,
    true,
    {},
    { username: null, password: null },
    { username: 123, password: PASSWORD },
    { username: "valid_name", password: 12345678901 },
    { username: ["a"], password: PASSWORD },
    { username: { $ne: null }, password: PASSWORD },
    { username: "ab", password: PASSWORD },
    { username: "a".repeat(33), password: PASSWORD },
    { username: "x".repeat(100_000), password: PASSWORD },
    { username: "valid_name", password: "p".repeat(300) },
    { username: "bad name", password: PASSWORD },
    { username: "bad/name", password: PASSWORD },
    { username: "' OR 1=1 --", password: PASSWORD },
    { username: "admin'; DROP TABLE users; --", password: PASSWORD },
    { username: "名前テスト", password: PASSWORD },
    { username: "emoji😀name", password: PASSWORD },
    { username: "zero\u200bwidth", password: PASSWORD },
    { username: "nul\u0000byte", password: PASSWORD },
    { username: "<script>", password: PASSWORD },
    { username: "valid_name", password: PASSWORD, email: "not-an-email" },
    { username: "valid_name", password: PASSWORD, email: 5 },
    { username: "valid_name", password: PASSWORD, email: `${"a".repeat(300)}@example.test` },
    { username: "valid_name", password: PASSWORD, email: "a@b@c" },
  ];

  it("answers every malformed registration with a 4xx in the error shape", async () => {
    let count = 0;
    for (const body of bodies) {
      const res = await post("/api/register", body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().error.code).toMatch(/^[A-Z_]+$/);
      expect(typeof res.json().error.message).toBe("string");
      count++;
    }
    expect(count).toBeGreaterThanOrEqual(28);
  });

  it("answers malformed requests to every auth route with a 4xx", async () => {
    const cases: Array<[string, string, string | object | undefined, string?]> = [
      ["POST", "/api/login", "{not json"],
      ["POST", "/api/login", { username: "", password: "" }],
      ["POST", "/api/login", { username: "x".repeat(10_000), password: "y" }],
      ["POST", "/api/login", { username: "' OR ''='", password: "' OR ''='" }],
      ["POST", "/api/login", "username=a&password=b", "application/x-www-form-urlencoded"],
      ["POST", "/api/login", "<xml/>", "application/xml"],
      ["POST", "/api/login", undefined, "application/json"],
      ["POST", "/api/forgot-password", { email: "nope" }],
      ["POST", "/api/forgot-password", { email: ["a@b.c"] }],
      ["POST", "/api/forgot-password", {}],
      ["POST", "/api/reset-password", { token: "short", password: PASSWORD }],
      ["POST", "/api/reset-password", { token: "x".repeat(500), password: PASSWORD }],
      ["POST", "/api/reset-password", { token: "x".repeat(43), password: "short" }],
      ["POST", "/api/reset-password/check", { token: 7 }],
      ["POST", "/api/reset-password/check", "[]"],
      ["GET", `/api/verify-email?token=${"x".repeat(300)}`, undefined],
      ["PUT", "/api/login", { username: "a", password: "b" }],
      ["GET", "/api/login", undefined],
      ["DELETE", "/api/register", undefined],
      ["POST", "/api/user", { a: 1 }],
      ["POST", "/api/login", JSON.stringify({ username: "a", password: "b" }).repeat(50_000)],
      ["POST", "/api/login", "\u0000\u0001\u0002"],
      ["POST", "/api/login", "null"],
      ["POST", "/api/register", '{"username":"a","password":"b","__proto__":{"admin":true}}'],
    ];
    for (const [method, url, payload, contentType] of cases) {
      const res = await app.inject({
        method: method as "POST",
        url,
        ...(payload === undefined ? {} : { payload }),
        headers: {
          ...(contentType || payload !== undefined
            ? { "content-type": contentType ?? "application/json" }
            : {}),
        },
      });
      const label = `${method} ${url} ${String(typeof payload === "string" ? payload : JSON.stringify(payload)).slice(0, 40)}`;
      expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, label).toBeLessThan(500);
      expect(res.json().error.code, label).toMatch(/^[A-Z_]+$/);
    }
    expect(bodies.length + cases.length).toBeGreaterThanOrEqual(50);
  });
});

describe("login throttle", () => {
  it("counts an account's failures, then asks for a challenge and slows down only the failing address", async () => {
    let now = 1_000_000;
    const state = new MemorySharedState(() => now);
    const throttle = createLoginThrottle(state, { perAccount: 2, perIp: 100, windowMs: 60_000 }, () => now);
    const ann = (ip: string) => ({ account: "Ann", ip });
    expect(await throttle.admit(ann("1.1.1.1"))).toEqual({ kind: "ok" });
    await throttle.failed(ann("1.1.1.1"));
    await throttle.failed({ account: "ANN", ip: "2.2.2.2" });
    // At the threshold, whatever the address or the case: a challenge, never a refusal.
    expect(await throttle.admit({ account: "ann", ip: "3.3.3.3" })).toEqual({ kind: "challenge" });
    await throttle.failed(ann("1.1.1.1"));
    // The failing address waits 1 s, then 2 s after its next failure; others only get the challenge.
    expect(await throttle.admit(ann("1.1.1.1"))).toEqual({ kind: "wait", seconds: 1 });
    expect(await throttle.admit(ann("9.9.9.9"))).toEqual({ kind: "challenge" });
    now += 1001;
    expect(await throttle.admit(ann("1.1.1.1"))).toEqual({ kind: "challenge" });
    await throttle.failed(ann("1.1.1.1"));
    expect(await throttle.admit(ann("1.1.1.1"))).toEqual({ kind: "wait", seconds: 2 });
    // Another account is untouched; a success clears the account.
    expect(await throttle.admit({ account: "bob", ip: "1.1.1.1" })).toEqual({ kind: "ok" });
    await throttle.succeeded(ann("9.9.9.9"));
    expect(await throttle.admit(ann("8.8.8.8"))).toEqual({ kind: "ok" });
  });

  it("limits one address's attempts in a sliding window", async () => {
    let now = 1_000_000;
    const throttle = createLoginThrottle(
      new MemorySharedState(() => now),
      { perAccount: 100, perIp: 2, windowMs: 1000 },
      () => now,
    );
    expect(await throttle.admit({ account: "a", ip: "1.1.1.1" })).toEqual({ kind: "ok" });
    now += 100;
    expect(await throttle.admit({ account: "b", ip: "1.1.1.1" })).toEqual({ kind: "ok" });
    expect(await throttle.admit({ account: "c", ip: "1.1.1.1" })).toMatchObject({ kind: "wait" });
    expect(await throttle.admit({ account: "c", ip: "2.2.2.2" })).toEqual({ kind: "ok" });
    now += 950;
    expect(await throttle.admit({ account: "c", ip: "1.1.1.1" })).toEqual({ kind: "ok" });
  });

  it("is shared by instances through Redis", async () => {
    const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
    const prefix = `test:${Date.now()}:${Math.random().toString(36).slice(2)}:`;
    const [a, b] = await Promise.all([
      // A deadline a busy machine's Redis meets: past it a call is answered per instance, not shared.
      openSharedState({ redisUrl: url, keyPrefix: prefix, commandTimeoutMs: 2000 }),
      openSharedState({ redisUrl: url, keyPrefix: prefix, commandTimeoutMs: 2000 }),
    ]);
    try {
      const options = { perAccount: 2, perIp: 100, windowMs: 60_000 };
      const one = createLoginThrottle(a, options);
      const two = createLoginThrottle(b, options);
      await one.failed({ account: "shared", ip: "1.1.1.1" });
      await two.failed({ account: "shared", ip: "2.2.2.2" });
      expect(await one.admit({ account: "shared", ip: "3.3.3.3" })).toEqual({ kind: "challenge" });
      await two.succeeded({ account: "shared", ip: "3.3.3.3" });
      expect(await one.admit({ account: "shared", ip: "3.3.3.3" })).toEqual({ kind: "ok" });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
