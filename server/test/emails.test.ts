import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { users } from "../src/db/schema.ts";
import { emailTime, textToHtml, timeLocaleOf } from "../src/lib/email-html.ts";
import { totpAt } from "../src/modules/two-factor/totp.ts";
import { createTestApp } from "./helpers.ts";
import { type CapturedMail, englishWordsIn, readMail, startMailCapture } from "./mail-capture.ts";
import { api, createMerchant } from "./payment-helpers.ts";

/**
 * Every email is HTML with a text part, and its times are in the recipient's zone and language (issue 36): read
 * from the real SMTP server the messages are sent to.
 */
const mail = await startMailCapture();
afterAll(() => mail.close());
const generous = { limit: 100_000, windowMs: 60_000 };
const app = await createTestApp({
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
});
const db = app.database.db;
const PASSWORD = "correct horse battery staple 42";
const unique = () => `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

function expectHtmlAndText(message: CapturedMail) {
  expect(message.raw).toMatch(/Content-Type: multipart\/alternative/i);
  const found = readMail(message);
  expect(found.text.length).toBeGreaterThan(20);
  expect(found.html).toContain("<!doctype html>");
  expect(found.html).toContain("<p>");
  return found;
}

const inject = (method: "GET" | "POST", url: string, payload?: unknown, cookie?: string) =>
  app.inject({ method, url, payload: payload as object, headers: cookie ? { cookie } : {} });
const sessionOf = (res: Awaited<ReturnType<typeof inject>>) =>
  `cpxtb_session=${res.cookies.find((c) => c.name === "cpxtb_session")!.value}`;
const placeOf = async (id: string) =>
  (
    await db.select({ timeZone: users.timeZone, locale: users.locale }).from(users).where(eq(users.id, id))
  )[0];

describe("emails", () => {
  it("keeps the zone and language the browser reports at registration and sign-in (an unusable one is dropped)", async () => {
    const username = unique();
    const registered = await inject("POST", "/api/register", {
      username,
      password: PASSWORD,
      timeZone: "Europe/Berlin",
      locale: "de-DE",
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const id = registered.json().id as string;
    expect(await placeOf(id)).toEqual({ timeZone: "Europe/Berlin", locale: "de-DE" });

    const moved = await inject("POST", "/api/login", {
      username,
      password: PASSWORD,
      timeZone: "America/New_York",
      locale: "en-US",
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await placeOf(id)).toEqual({ timeZone: "America/New_York", locale: "en-US" });

    const odd = await inject("POST", "/api/login", {
      username,
      password: PASSWORD,
      timeZone: "Mars/Olympus_Mons",
      locale: "not a locale!",
    });
    expect(odd.statusCode, odd.body).toBe(200);
    expect(await placeOf(id)).toEqual({ timeZone: "America/New_York", locale: "en-US" });

    // A visit to the profile reports them too.
    const visited = await app.inject({
      method: "PATCH",
      url: "/api/user/preferences",
      payload: { timeZone: "Asia/Tokyo", locale: "ja-JP" },
      headers: { cookie: sessionOf(odd) },
    });
    expect(visited.statusCode, visited.body).toBe(200);
    expect(await placeOf(id)).toEqual({ timeZone: "Asia/Tokyo", locale: "ja-JP" });
  });

  it("sends the account emails as HTML with a text part, in the reader's language; the two-factor notice tells the time in the reader's zone", async () => {
    const username = unique();
    const email = `${username}@example.com`;
    const registered = await inject("POST", "/api/register", {
      username,
      password: PASSWORD,
      email,
      timeZone: "Europe/Berlin",
      locale: "de-DE",
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const cookie = sessionOf(registered);

    // Confirm your email, in German: the link is a link in the HTML part.
    const confirm = await mail.waitFor(email);
    const { html, subject } = expectHtmlAndText(confirm);
    expect(subject).toBe("Bestätigen Sie Ihre E-Mail-Adresse für CPXTB Pay");
    expect(html).toContain('<html lang="de" dir="ltr">');
    const link = html.match(
      /<a href="(https:\/\/pay\.example\.test\/api\/verify-email\?token=[A-Za-z0-9_-]+)"/,
    );
    expect(link, html).not.toBeNull();
    const verified = await inject("GET", link![1]!.replace("https://pay.example.test", ""));
    expect(verified.statusCode).toBeLessThan(400);

    // A second factor added: the notice's time in Berlin, in German.
    const before = mail.messages.length;
    const setup = await inject("POST", "/api/user/two-factor/totp", {}, cookie);
    expect(setup.statusCode, setup.body).toBe(200);
    const confirmed = await inject(
      "POST",
      "/api/user/two-factor/totp/confirm",
      { code: totpAt(setup.json().secret, Date.now()) },
      cookie,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await expect.poll(() => mail.messages.length, { timeout: 30_000 }).toBeGreaterThan(before);
    const notice = mail.messages.slice(before).find((m) => m.to.includes(email))!;
    const noticeParts = expectHtmlAndText(notice);
    expect(noticeParts.subject).toBe("Ihre Anmeldeeinstellungen bei CPXTB Pay wurden geändert");
    expect(noticeParts.text).toMatch(
      new RegExp(
        `^Für das Konto „${username}“ bei CPXTB Pay wurde eine Authenticator-App als zweiter Faktor eingerichtet \\(\\d{1,2}\\. \\p{L}+ 20\\d\\d um \\d{2}:\\d{2} \\(Europe\\/Berlin\\)\\)\\.$`,
        "mu",
      ),
    );
    expect(noticeParts.text).toContain("\n\nhttps://pay.example.test/profile#two-factor");
    expect(englishWordsIn(`${noticeParts.subject}\n${noticeParts.text}\n${noticeParts.html}`)).toEqual([]);

    // Reset your password, in German too.
    const reset = await inject("POST", "/api/forgot-password", { email });
    expect(reset.statusCode).toBeLessThan(300);
    const isReset = (m: CapturedMail) => m.to.includes(email) && m.raw.includes("/reset-password?token=");
    await expect.poll(() => mail.messages.filter(isReset).length, { timeout: 30_000 }).toBe(1);
    const resetParts = expectHtmlAndText(mail.messages.find(isReset)!);
    expect(resetParts.subject).toBe("Ihr Passwort für CPXTB Pay zurücksetzen");
    expect(resetParts.html).toMatch(/<a href="https:\/\/pay\.example\.test\/reset-password\?token=/);
  });

  it("sends the team invitation as HTML with a text part", async () => {
    const owner = await createMerchant(app, { name: "Corner Coffee" });
    const invitee = `${unique()}@example.com`;
    const res = await api(app, owner.cookie).post("/api/merchant/team/invitations", {
      email: invitee,
      role: "staff",
    });
    expect(res.statusCode, res.body).toBe(201);
    const { html, text } = expectHtmlAndText(await mail.waitFor(invitee));
    expect(text).toContain("Corner Coffee invites you");
    expect(html).toMatch(/<a href="https:\/\/pay\.example\.test\/invitations\/[A-Za-z0-9_-]+"/);
  });
});

describe("email text helpers", () => {
  it("tells a time in the reader's zone and language, or in UTC saying so", () => {
    const at = new Date("2026-11-26T11:40:00Z");
    expect(emailTime(at)).toBe("26 November 2026 at 11:40 UTC");
    expect(emailTime(at, { timeZone: "Europe/Berlin", locale: "de-DE" })).toBe(
      "26. November 2026 um 12:40 (Europe/Berlin)",
    );
    // Something the runtime cannot use falls back to UTC in English rather than failing the email.
    expect(emailTime(at, { timeZone: "Nowhere/Else", locale: "en-US" })).toBe(
      "26 November 2026 at 11:40 UTC",
    );
  });

  it("writes a time in the email's language: the reader's region kept, Latin digits, no foreign date in English", () => {
    const at = new Date("2026-11-26T11:40:00Z");
    const time = (stored: string | null, language: Parameters<typeof timeLocaleOf>[1]) =>
      emailTime(at, { timeZone: "UTC", locale: timeLocaleOf(stored, language) });
    // Egypt's own digits would be Arabic-Indic (٢٦): an email's times, like its amounts, are in Latin digits.
    expect(time("ar-EG", "ar")).toMatch(/^26 نوفمبر 2026 .*11:40.* UTC$/);
    expect(time("en-US", "en")).toBe("November 26, 2026 at 11:40 AM UTC");
    // A reader of a language we do not write gets English, and an English date with it.
    expect(time("ja-JP", "en")).toBe("26 November 2026 at 11:40 UTC");
    // A reader with no language of their own, written to in the language of the page they asked on.
    expect(time(null, "tr")).toBe("26 Kasım 2026 11:40 UTC");
  });

  it("makes the HTML part of a text message in its language: escaped, paragraphs, links left to right", () => {
    expect(textToHtml("مرحبًا\n\nhttps://pay.example/x", "ar")).toContain('<html lang="ar" dir="rtl">');
    expect(textToHtml("مرحبًا\n\nhttps://pay.example/x", "ar")).toContain(
      '<a href="https://pay.example/x" dir="ltr"',
    );
  });

  it("makes the HTML part of a text message: escaped, paragraphs, links", () => {
    const html = textToHtml(
      "Hello <you> & co.\nSecond line.\n\nOpen https://pay.example/x?a=1&b=2.\n\nCPXTB Pay",
    );
    expect(html).toContain("<p>Hello &lt;you&gt; &amp; co.<br>\nSecond line.</p>");
    expect(html).toContain('<a href="https://pay.example/x?a=1&amp;b=2"');
    expect(html).toContain(">https://pay.example/x?a=1&amp;b=2</a>.</p>");
    expect(html.match(/CPXTB Pay/g)).toHaveLength(1);
  });
});
