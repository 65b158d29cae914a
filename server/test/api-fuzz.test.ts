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
    // Thousands of requests over every route, in one test: its time grows with the API (about 60 s at load 18;
    // 243 s at load 28 once the payment links' nine routes came).
  }, 480_000);
});

// Issue 33, item 11: a date or a number the database cannot hold (year 0, year 10000, 2^63) was a 500 with the
// failed SQL in the log. Every GET route gets each edge in every field a date could be named by, with a merchant's
// session and an API key (so /api/v1 reads it too), and every write route gets numbers and texts past what a column
// holds: a 4xx in the error shape, or a 200.
const DATE_FIELDS = ["from", "to", "since", "until", "date", "day", "start", "end", "before", "after"];
const DATE_EDGES = [
  "0000-01-01",
  "0001-01-01",
  "1969-12-31",
  "1970-01-01",
  "1999-12-31",
  "9999-12-31",
  "10000-01-01",
  "275760-09-13",
  "+275760-09-13",
  "-000001-01-01",
  "-1-01-01",
  "2023-02-29",
  "2024-02-29",
  "2024-02-30",
  "2024-04-31",
  "2024-13-01",
  "2024-00-10",
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00Z",
  "1969-12-31T23:59:59.999Z",
  "1999-12-31T23:59:59Z",
  "2000-01-01T00:00:00+14:00",
  "2999-12-31T23:59:59-12:00",
  "9999-12-31T23:59:59Z",
  "9999-12-31T23:59:59-14:00",
  "10000-01-01T00:00:00Z",
  "+275760-09-13T00:00:00Z",
  "+275760-09-13T00:00:00.001Z",
  "-271821-04-20T00:00:00Z",
  "-000001-01-01T00:00:00Z",
  "2023-02-29T00:00:00Z",
  "2024-02-30T00:00:00Z",
  "2024-01-01T24:00:00Z",
  "2024-06-30T23:59:60Z",
  "2024-01-01T00:00:00+25:00",
  "2024-01-01T00:00:00-99:99",
  "2024-01-01T00:00:00.123456789Z",
  "99999999999999999999",
  "1e400",
  "-1",
  "0",
  "NaN",
  "Infinity",
  "",
];
const ZONES = ["UTC", "Pacific/Kiritimati", "Etc/GMT+12", "America/St_Johns"];

/** Numbers and texts beyond what an int, a bigint or a varchar column holds, in every field of a body or query. */
const HUGE = [
  "2147483648",
  "9223372036854775808",
  "-9223372036854775809",
  "1e308",
  "99999999999999999999999999999999.99",
  "9".repeat(400),
];
const NUMBER_FIELDS = [
  "limit",
  "amount",
  "amountUsd",
  "expiresInMinutes",
  "chainId",
  "blockNumber",
  "logIndex",
  "offset",
  "page",
];

describe("dates and numbers at the edges (issue 33, item 11)", () => {
  let apiKey: string;
  beforeAll(async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/merchant/api-keys",
      headers: { cookie: merchant.cookie },
      payload: { name: "Fuzz", scopes: ["payments:read", "payments:write"] },
    });
    expect(res.statusCode, res.body).toBe(201);
    apiKey = (res.json() as { secret: string }).secret;
  });

  it("every GET route answers a date at the edge of any range without a 5xx", async () => {
    const routes = app.routeIndex
      .list()
      .filter((r) => r.url.startsWith("/api/") && r.methods.includes("GET"));
    const headers = () => ({ cookie: merchant.cookie, authorization: `Bearer ${apiKey}` });
    const failures: string[] = [];
    let requests = 0;
    for (const { url } of routes) {
      const path = concrete(url, "x");
      const queries: string[] = [];
      for (const edge of DATE_EDGES) {
        const value = encodeURIComponent(edge);
        // The edge alone, as the start, as the end, and a one-day range at it.
        queries.push(`${DATE_FIELDS.map((f) => `${f}=${value}`).join("&")}&tz=UTC`);
        queries.push(`from=2024-01-01&to=${value}&tz=UTC`);
        queries.push(`from=${value}&to=2024-12-31&tz=UTC`);
      }
      for (const zone of ZONES) {
        for (const day of [
          "0001-01-01",
          "1999-12-31",
          "2000-01-01",
          "2999-12-31",
          "3000-01-01",
          "9999-12-31",
        ]) {
          queries.push(`from=${day}&to=${day}&tz=${encodeURIComponent(zone)}`);
        }
      }
      for (const huge of HUGE) queries.push(NUMBER_FIELDS.map((f) => `${f}=${huge}`).join("&"));
      for (const query of queries) {
        const res = await app.inject({ method: "GET", url: `${path}?${query}`, headers: headers() });
        // Every failure listed at the end, not only the first.
        try {
          checkAnswer(`GET ${path}?${decodeURIComponent(query)}`, res);
        } catch (error) {
          failures.push((error as Error).message.split("\n")[0]!.slice(0, 300));
        }
        requests++;
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(1000);
  }, 240_000);

  it("refuses a date outside 2000..2999 before the database sees it, saying the range, and takes its edges", async () => {
    const get = (url: string) =>
      app.inject({ url, headers: { cookie: merchant.cookie, authorization: `Bearer ${apiKey}` } });
    for (const url of [
      "/api/merchant/reports/summary?from=0000-01-01&to=0000-01-01&tz=UTC",
      "/api/merchant/reports/payments.csv?from=1999-12-31&to=1999-12-31&tz=UTC",
      "/api/merchant/reports/summary?from=3000-01-01&to=3000-01-01&tz=UTC",
      "/api/merchant/audit-events?from=9999-12-31",
      "/api/merchant/audit-events?to=1969-12-31",
      "/api/v1/payments?from=0000-01-01T00:00:00Z",
      "/api/v1/payments?to=9999-12-31T23:59:59Z",
    ]) {
      const res = await get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
      expect(res.json().error.message, url).toMatch(/from 2000-01-01(T00:00:00Z)? to 2999-12-31/);
    }
    for (const url of [
      "/api/merchant/reports/summary?from=2000-01-01&to=2000-01-01&tz=Pacific/Kiritimati",
      "/api/merchant/reports/summary?from=2999-12-31&to=2999-12-31&tz=Etc/GMT%2B12",
      "/api/merchant/reports/payments.csv?from=2999-12-01&to=2999-12-31&tz=UTC",
      "/api/merchant/audit-events?from=2000-01-01&to=2999-12-31",
      "/api/v1/payments?from=2000-01-01T00:00:00Z&to=2999-12-31T23:59:59.999Z",
    ]) {
      const res = await get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
  });

  it("every write route answers numbers and texts beyond a column without a 5xx", async () => {
    const routes = app.routeIndex
      .list()
      .filter((r) => r.url.startsWith("/api/") && !/\/logout$|^\/api\/user\/sessions/.test(r.url));
    const bodies: unknown[] = [];
    for (const huge of HUGE) {
      bodies.push(Object.fromEntries(NUMBER_FIELDS.map((f) => [f, huge])));
      bodies.push(Object.fromEntries(NUMBER_FIELDS.map((f) => [f, Number(huge)])));
      bodies.push({ currency: "USD", amount: huge });
      bodies.push({ currency: "CPXTB", amount: huge });
    }
    for (const edge of ["0000-01-01T00:00:00Z", "10000-01-01", "+275760-09-13T00:00:00Z", "2023-02-29"]) {
      bodies.push(Object.fromEntries(DATE_FIELDS.map((f) => [f, edge])));
    }
    const long = "x".repeat(70_000);
    bodies.push({
      name: long,
      description: long,
      orderId: long,
      username: long,
      email: `${long}@example.com`,
      url: `https://example.com/${long}`,
      message: long,
      reference: long,
    });
    let requests = 0;
    for (const { url, methods } of routes) {
      for (const method of methods) {
        if (!["POST", "PUT", "PATCH"].includes(method)) continue;
        for (const body of bodies) {
          const res = await app.inject({
            method: method as "POST",
            url: concrete(url, "x"),
            headers: {
              cookie: merchant.cookie,
              authorization: `Bearer ${apiKey}`,
              "content-type": "application/json",
            },
            payload: JSON.stringify(body),
          });
          checkAnswer(`${method} ${url} ${JSON.stringify(body).slice(0, 80)}`, res);
          requests++;
        }
      }
    }
    expect(requests).toBeGreaterThan(200);
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
