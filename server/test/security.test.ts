import type { ChallengeLevel } from "@common/challenge.ts";
import { describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import type { Config } from "../src/config.ts";
import type { FastifyZod } from "../src/lib/fastify-zod.ts";
import { answerMac, clientMac, signChallengeToken } from "../src/modules/security/challenge-token.ts";
import { generateEquation } from "../src/modules/security/equations.ts";
import { createTestApp } from "./helpers.ts";
import { solve } from "./solve-equation.ts";
import { redisUrl, uniquePrefix } from "./ws-client.ts";

const SECRET = "test-challenge-secret-0123456789abcdef";
const limits = (general: number): Config["rateLimits"] => ({
  general: { limit: general, windowMs: 60_000 },
  auth: { limit: 2, windowMs: 60_000 },
  contact: { limit: 2, windowMs: 60_000 },
  claim: { limit: 2, windowMs: 60_000 },
  public: { limit: 100, windowMs: 60_000 },
  verify: { limit: 8, windowMs: 60_000 },
  api: { limit: 1000, windowMs: 60_000 },
});

async function extraRoutes(app: FastifyZod) {
  let calls = 0;
  app.get("/api/test/limited", async () => ({ ok: true, calls: ++calls }));
  app.get("/api/test/strict", { config: { rateLimit: "auth" } }, async () => ({ ok: true }));
  app.get("/api/test/exempt", { config: { rateLimit: false } }, async () => ({ ok: true }));
}

let ipCounter = 10;
const newClient = () => `10.0.0.${ipCounter++}`;

async function exhaust(app: App, ip: string, url = "/api/test/limited") {
  for (;;) {
    const res = await app.inject({ url, remoteAddress: ip });
    if (res.statusCode === 429) return res;
    expect(res.statusCode).toBe(200);
  }
}

const verify = (app: App, ip: string, token: string, answer: string | number) =>
  app.inject({
    url: "/api/verify-challenge",
    remoteAddress: ip,
    headers: { "x-math-challenge-token": token, "x-math-challenge-response": String(answer) },
  });

const app = await createTestApp({ rateLimits: limits(3), challengeSecret: SECRET }, { extraRoutes });

describe("rate limits", () => {
  it("refuses exactly the request after the configured count, with 429, Retry-After and a challenge", async () => {
    const ip = newClient();
    for (let i = 0; i < 3; i++) {
      expect((await app.inject({ url: "/api/test/limited", remoteAddress: ip })).statusCode).toBe(200);
    }
    const res = await app.inject({ url: "/api/test/limited", remoteAddress: ip });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    const body = res.json();
    expect(body).toEqual({
      error: {
        code: "RATE_LIMITED",
        message: "Too many requests. Please solve the security check to continue.",
      },
      challenge: { token: expect.any(String), equation: expect.any(String), level: 1 },
    });
    expect(body.challenge.equation).toMatch(/^\d+ \+ \d+$/);
    // Another client is unaffected.
    expect((await app.inject({ url: "/api/test/limited", remoteAddress: newClient() })).statusCode).toBe(200);
  });

  it("limits each route group on its own, and never limits exempt routes or health", async () => {
    const ip = newClient();
    await exhaust(app, ip);
    expect((await app.inject({ url: "/api/test/strict", remoteAddress: ip })).statusCode).toBe(200);
    expect((await app.inject({ url: "/api/test/strict", remoteAddress: ip })).statusCode).toBe(200);
    expect((await app.inject({ url: "/api/test/strict", remoteAddress: ip })).statusCode).toBe(429);
    for (let i = 0; i < 10; i++) {
      expect((await app.inject({ url: "/api/test/exempt", remoteAddress: ip })).statusCode).toBe(200);
      expect((await app.inject({ url: "/api/health", remoteAddress: ip })).statusCode).toBe(200);
    }
  });

  it("lets the next request through after a correct answer", async () => {
    const ip = newClient();
    const { challenge } = (await exhaust(app, ip)).json();
    const res = await verify(app, ip, challenge.token, solve(challenge.equation));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: expect.any(String), level: 1 });
    expect(res.headers["cache-control"]).toBe("no-store");
    // The window is reset: the full limit again.
    for (let i = 0; i < 3; i++) {
      expect((await app.inject({ url: "/api/test/limited", remoteAddress: ip })).statusCode).toBe(200);
    }
  });

  it("answers a wrong answer with a message and a fresh challenge, never the answer", async () => {
    const ip = newClient();
    const { challenge } = (await exhaust(app, ip)).json();
    const correct = solve(challenge.equation);
    const res = await verify(app, ip, challenge.token, correct + 1);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toEqual({
      code: "CHALLENGE_INCORRECT",
      message: "Incorrect answer. Please try again.",
    });
    expect(body.challenge.token).not.toBe(challenge.token);
    expect(res.body).not.toContain(`"${correct}"`);
    expect(JSON.stringify(body.error)).not.toContain(String(correct));
    // Still limited until solved; the fresh challenge works.
    expect((await app.inject({ url: "/api/test/limited", remoteAddress: ip })).statusCode).toBe(429);
    const ok = await verify(app, ip, body.challenge.token, solve(body.challenge.equation));
    expect(ok.statusCode).toBe(200);
    expect((await app.inject({ url: "/api/test/limited", remoteAddress: ip })).statusCode).toBe(200);
  });

  it("refuses a reused token even with the right answer", async () => {
    const ip = newClient();
    const { challenge } = (await exhaust(app, ip)).json();
    expect((await verify(app, ip, challenge.token, solve(challenge.equation))).statusCode).toBe(200);
    const again = await verify(app, ip, challenge.token, solve(challenge.equation));
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe("CHALLENGE_INVALID");
  });

  it("refuses forged, expired and other clients' tokens", async () => {
    const ip = newClient();
    const { challenge } = (await exhaust(app, ip)).json();
    const answer = solve(challenge.equation);
    const [v, body, sig] = challenge.token.split(".");

    const tampered = `${v}.${body}.${sig.slice(0, -2)}${sig.endsWith("AA") ? "BB" : "AA"}`;
    expect((await verify(app, ip, tampered, answer)).json().error.code).toBe("CHALLENGE_INVALID");
    expect((await verify(app, ip, "v1.garbage", answer)).json().error.code).toBe("CHALLENGE_INVALID");

    const forgedWithOtherSecret = signChallengeToken("not-the-secret-but-long-enough-000000", {
      id: "x",
      client: clientMac("not-the-secret-but-long-enough-000000", `ip:${ip}`),
      group: "general",
      level: 1,
      expiresAt: Date.now() + 60_000,
      answerMac: answerMac("not-the-secret-but-long-enough-000000", "x", 2),
    });
    expect((await verify(app, ip, forgedWithOtherSecret, 2)).json().error.code).toBe("CHALLENGE_INVALID");

    const expired = signChallengeToken(SECRET, {
      id: "expired-1",
      client: clientMac(SECRET, `ip:${ip}`),
      group: "general",
      level: 1,
      expiresAt: Date.now() - 1,
      answerMac: answerMac(SECRET, "expired-1", 2),
    });
    const expiredRes = await verify(app, ip, expired, 2);
    expect(expiredRes.statusCode).toBe(400);
    expect(expiredRes.json().error).toEqual({
      code: "CHALLENGE_INVALID",
      message: "This security check has expired. Please solve the new one.",
    });

    // Handed to another client: refused there, and the original is still unspent.
    expect((await verify(app, newClient(), challenge.token, answer)).json().error.code).toBe(
      "CHALLENGE_INVALID",
    );
    expect((await verify(app, ip, challenge.token, answer)).statusCode).toBe(200);
  });

  it("answers missing or empty headers with 400 and never a 500", async () => {
    const ip = newClient();
    const none = await app.inject({ url: "/api/verify-challenge", remoteAddress: ip });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.code).toBe("VALIDATION_ERROR");
    const empty = await verify(app, ip, "v1.a.b", "   ");
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toContain("Please enter your answer");
    const words = await verify(app, ip, "v1.a.b", "twelve");
    expect(words.statusCode).toBe(400);
  });

  it("raises the level with repeated excess and wrong answers, lowers it after correct ones", async () => {
    const ip = newClient();
    let { challenge } = (await exhaust(app, ip)).json();
    expect(challenge.level).toBe(1);
    for (const expected of [2, 3]) {
      ({ challenge } = (await verify(app, ip, challenge.token, solve(challenge.equation) + 1)).json());
      expect(challenge.level).toBe(expected);
    }
    const solved = await verify(app, ip, challenge.token, solve(challenge.equation));
    expect(solved.json().level).toBe(2);
    // A new episode of excess: one strike more.
    ({ challenge } = (await exhaust(app, ip)).json());
    expect(challenge.level).toBe(3);
  });

  it("limits answers: a client cannot guess freely", async () => {
    const ip = newClient();
    let { challenge } = (await exhaust(app, ip)).json();
    let refused = null;
    for (let i = 0; i < 20 && !refused; i++) {
      const res = await verify(app, ip, challenge.token, -1);
      if (res.statusCode === 429) refused = res;
      else challenge = res.json().challenge;
    }
    expect(refused?.json()).toEqual({
      error: { code: "RATE_LIMITED", message: expect.stringMatching(/wait/) },
    });
    expect(refused?.json().challenge).toBeUndefined();
  });
});

describe("equations", () => {
  it.each([1, 2, 3, 4, 5] as ChallengeLevel[])(
    "level %i: solvable, integer, non-negative answers",
    (level) => {
      for (let i = 0; i < 500; i++) {
        const { equation, answer } = generateEquation(level);
        expect(Number.isInteger(answer), equation).toBe(true);
        expect(answer, equation).toBeGreaterThanOrEqual(0);
        expect(solve(equation), equation).toBe(answer);
        const numbers = (equation.match(/\d+/g) ?? []).map(Number);
        if (level === 1) expect(equation).toMatch(/^(10|[1-9]) \+ (10|[1-9])$/);
        if (level === 2) expect(equation).toMatch(/^\d+ [-+] \d+$/);
        if (level === 3) expect(equation).toMatch(/^\d+ [-+×] \d+$/);
        if (level === 4) expect(equation).toMatch(/^\d+ [-+×÷] \d+$/);
        if (level === 5) expect(equation).toMatch(/\(.+\)/);
        if (level <= 3) expect(Math.max(...numbers)).toBeLessThanOrEqual(level === 1 ? 10 : 20);
      }
    },
  );
});

const shared = {
  rateLimits: limits(3),
  challengeSecret: SECRET,
  redisUrl,
  redisKeyPrefix: uniquePrefix("rate-limit"),
};
const a = await createTestApp(shared, { extraRoutes });
const b = await createTestApp(shared, { extraRoutes });

describe("rate limits across instances (Redis)", () => {
  it("share one window and accept each other's challenges", async () => {
    const ip = newClient();
    expect((await a.inject({ url: "/api/test/limited", remoteAddress: ip })).statusCode).toBe(200);
    expect((await b.inject({ url: "/api/test/limited", remoteAddress: ip })).statusCode).toBe(200);
    expect((await a.inject({ url: "/api/test/limited", remoteAddress: ip })).statusCode).toBe(200);
    const refused = await b.inject({ url: "/api/test/limited", remoteAddress: ip });
    expect(refused.statusCode).toBe(429);
    const { challenge } = refused.json();
    expect((await verify(a, ip, challenge.token, solve(challenge.equation))).statusCode).toBe(200);
    expect((await verify(b, ip, challenge.token, solve(challenge.equation))).json().error.code).toBe(
      "CHALLENGE_INVALID",
    );
    expect((await b.inject({ url: "/api/test/limited", remoteAddress: ip })).statusCode).toBe(200);
  });
});
