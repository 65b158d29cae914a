import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import { createMerchant, paymentTestConfig, type TestMerchant } from "./payment-helpers.ts";

// Issue 12: every /api route, signed out and signed in as a merchant, fed malformed and hostile input, answers
// without a 5xx, and every 4xx carries { error: { code, message } }. Routes are read from the app itself, so a
// route added later is fuzzed too.

let chain: TestChain;
let app: App;
let merchant: TestMerchant;

beforeAll(async () => {
  chain = await startTestChain();
  // With the embedded chain's RPC proxy, as `npm start` runs it: /api/chain/rpc is fuzzed too.
  const connected = await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations: 1 }), {
    embeddedRpcUrl: chain.url,
  });
  // Limits out of the way: the fuzz is about what a route does with its input, not about being refused early.
  const generous = { limit: 1_000_000, windowMs: 60_000 };
  app = await createTestApp(
    {
      ...paymentTestConfig(),
      rateLimits: {
        general: generous,
        auth: generous,
        contact: generous,
        claim: generous,
        public: generous,
        verify: generous,
        api: generous,
      },
      accountRateLimit: generous,
    },
    { chain: connected },
  );
  merchant = await createMerchant(app);
});
afterAll(async () => {
  await chain?.stop();
});

const deep = (depth: number): unknown => (depth === 0 ? "x" : { a: deep(depth - 1), b: [deep(0)] });
const deepArray = (depth: number): unknown => (depth === 0 ? 1 : [deepArray(depth - 1)]);
const LONG = "a".repeat(300_000);

/** JSON texts that are each wrong in their own way. */
const BODIES: string[] = [
  "{",
  '{"a":',
  "[1,2",
  "null",
  "true",
  "12345",
  '"text"',
  "[]",
  "{}",
  JSON.stringify({ username: 1, password: [], email: {}, amount: -1, reference: null, txHash: 5 }),
  JSON.stringify({ amountUsd: "1e400", amount: "NaN", expiresInMinutes: 1e308, limit: -5, cursor: "%%" }),
  JSON.stringify({ name: "\u0000", description: "a\u0000b", q: "\u0000" }),
  // A lone surrogate: valid JSON escape, invalid Unicode text.
  '{"name":"\\ud800","username":"\\udfff","description":"\\ud83d"}',
  JSON.stringify({ name: LONG, username: LONG, description: LONG, redirectUrl: LONG }),
  JSON.stringify(deep(200)),
  JSON.stringify(deepArray(2_000)),
  JSON.stringify({ method: { nested: true }, params: deepArray(500), jsonrpc: "2.0", id: {} }),
  JSON.stringify({ __proto__: { admin: true }, constructor: { prototype: { x: 1 } } }),
];

/** Values for path parameters: bad percent-encoding, over-long, NUL, lone surrogates, traversal. */
const PARAMS = ["%", "%zz", "%ED%A0%80", "%00", "a".repeat(200), "..%2F..%2Fetc%2Fpasswd", "%F0%9F", "x"];

const QUERIES = [
  "?limit=-1&cursor=%zz",
  "?q=%00&status=nope",
  "?from=2026-13-45&to=x&tz=Mars%2FOlympus",
  "?a[b]=1",
];

function concrete(url: string, param: string) {
  return url.replace(/:[A-Za-z]+/g, param).replace(/\*/g, param);
}

const seen = new Map<number, number>();
function checkAnswer(
  label: string,
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
) {
  seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
  expect(res.statusCode, `${label} -> ${res.statusCode} ${res.body.slice(0, 200)}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const type = String(res.headers["content-type"] ?? "");
    expect(type, `${label} content type`).toContain("application/json");
    const body = JSON.parse(res.body) as { error?: { code?: unknown; message?: unknown } };
    expect(typeof body.error?.code, `${label} error.code in ${res.body.slice(0, 200)}`).toBe("string");
    expect(typeof body.error?.message, `${label} error.message`).toBe("string");
  }
}

describe("every /api route under hostile input", () => {
  it("answers without a 5xx, and every 4xx in the error shape", async () => {
    const routes = app.routeIndex
      .list()
      .filter((r) => r.url.startsWith("/api/"))
      // The fuzz needs a chain answer for chain routes (anvil is there); these two only ever stream or upgrade.
      .filter((r) => !r.url.endsWith(".csv"));
    expect(routes.length).toBeGreaterThan(40);
    let requests = 0;
    for (const { url, methods } of routes) {
      for (const method of methods) {
        if (method === "HEAD" || method === "OPTIONS") continue;
        // Signed in, the routes that end the session are left out: the rest must run signed in.
        const endsSession = /\/logout$|^\/api\/user\/sessions/.test(url);
        for (const cookie of endsSession ? [undefined] : [undefined, merchant.cookie]) {
          const headers: Record<string, string> = cookie ? { cookie } : {};
          for (const param of PARAMS) {
            const path = concrete(url, param);
            if (method === "GET" || method === "DELETE") {
              for (const query of ["", ...QUERIES]) {
                const res = await app.inject({ method, url: path + query, headers });
                checkAnswer(`${method} ${path}${query}`, res);
                requests++;
              }
              continue;
            }
            for (const body of BODIES) {
              const res = await app.inject({
                method: method as "POST" | "PUT" | "PATCH",
                url: path,
                headers: { ...headers, "content-type": "application/json" },
                payload: body,
              });
              checkAnswer(`${method} ${path} ${body.slice(0, 60)}`, res);
              requests++;
            }
            // Not JSON at all.
            const form = await app.inject({
              method: method as "POST",
              url: path,
              headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
              payload: "a=1",
            });
            checkAnswer(`${method} ${path} form`, form);
            requests++;
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(1000);
    // The input reached the routes' own validation (not only the rate limiter or the sign-in check).
    expect(seen.get(400) ?? 0).toBeGreaterThan(requests / 2);
    expect(seen.has(429)).toBe(false);
    // Thousands of requests over every route, in one test: its time grows with the API (about 60 s at load 18).
  }, 240_000);
});

describe("the RPC proxy (issue 12, item 8)", () => {
  it("answers 400 to a nested method or deeply nested params, without echoing them", async () => {
    for (const payload of [
      { jsonrpc: "2.0", id: 1, method: { toString: "eth_blockNumber" }, params: [] },
      { jsonrpc: "2.0", id: 1, method: "eth_call", params: deepArray(100) },
    ]) {
      const res = await app.inject({ method: "POST", url: "/api/chain/rpc", payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe("BAD_REQUEST");
      expect(res.body).not.toContain("[object Object]");
    }
  });
});
