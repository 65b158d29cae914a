import { mkdtempSync, readdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SIWE_SIGN_IN_STATEMENT } from "@common/siwe.ts";
import { sql } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type Config, loadConfig, type RateLimit } from "../src/config.ts";
import type { Database } from "../src/db/client.ts";
import type { FastifyZod } from "../src/lib/fastify-zod.ts";
import { createMailer } from "../src/lib/mailer.ts";
import { createTestApp } from "./helpers.ts";
import { TestSocket } from "./ws-client.ts";

// Issue 12: each block fails on the code before it.
const generous: RateLimit = { limit: 100_000, windowMs: 60_000 };
const limits = (general: number): Config["rateLimits"] => ({
  general: { limit: general, windowMs: 60_000 },
  auth: generous,
  contact: generous,
  claim: generous,
  public: generous,
  verify: generous,
  api: generous,
});

async function extraRoutes(app: FastifyZod) {
  app.get("/api/test/ip", async (request) => ({ ip: request.ip }));
  app.get("/api/test/item/:id", async (request) => ({ id: (request.params as { id: string }).id }));
}

// The default test configuration: no PUBLIC_URL, so the public origin is the listen address (localhost:5000).
const app = await createTestApp(
  {
    rateLimits: limits(3),
    accountRateLimit: { limit: 50, windowMs: 60_000 },
    trustProxy: 1,
    realtime: {
      maxMessageBytes: 4096,
      pingIntervalMs: 30_000,
      heartbeatMs: 200,
      broadcastDelayMs: 20,
      maxConnectionsPerAddress: 3,
    },
  },
  { extraRoutes },
);
const chainId = app.chain?.chainId ?? 31337;

describe("Sign-In with Ethereum on the listen address (no PUBLIC_URL)", () => {
  const account = privateKeyToAccount(generatePrivateKey());
  async function attempt(domain: string, uri: string, headers: Record<string, string> = {}) {
    const nonce = (await app.inject({ url: "/api/siwe/nonce" })).json().nonce;
    const message = createSiweMessage({
      address: account.address,
      domain,
      uri,
      chainId,
      nonce,
      version: "1",
      statement: SIWE_SIGN_IN_STATEMENT,
      issuedAt: new Date(),
    });
    const signature = await account.signMessage({ message });
    return app.inject({ method: "POST", url: "/api/siwe/verify", payload: { message, signature }, headers });
  }

  it("accepts the listen origin under its loopback names and nothing the Host header says", async () => {
    expect(app.hasDecorator("secureCookies")).toBe(true);
    for (const host of ["localhost:5000", "127.0.0.1:5000"]) {
      const ok = await attempt(host, `http://${host}`);
      expect(ok.statusCode, `${host}: ${ok.body}`).toBe(200);
    }
    const relayed = await attempt("evil.example", "http://evil.example", { host: "evil.example" });
    expect(relayed.statusCode).toBe(401);
    const otherPort = await attempt("localhost:6000", "http://localhost:6000", { host: "localhost:6000" });
    expect(otherPort.statusCode).toBe(401);
  });
});

describe("TRUST_PROXY as a hop count", () => {
  it("takes the address one hop back, so a spoofed left-most X-Forwarded-For changes nothing", async () => {
    const ip = (xff: string) =>
      app.inject({ url: "/api/test/ip", headers: { "x-forwarded-for": xff }, remoteAddress: "10.9.0.1" });
    expect((await ip("1.2.3.4, 203.0.113.7")).json().ip).toBe("203.0.113.7");
    // Rotating the first hop: still one client, limited after 3 requests.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await ip(`198.51.100.${i}, 203.0.113.8`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it("is read from the environment as a count or a list of addresses/CIDRs, and `true` is refused", () => {
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.1, loopback" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "192.168.1.1",
      "loopback",
    ]);
    expect(loadConfig({}).trustProxy).toBe(false);
    for (const bad of ["true", "10.0.0.0/99", "proxy.example"]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });
});

describe("signed-in requests count per account against a limit ordinary use never meets", () => {
  it("lets a signed-in client far past the anonymous limit, then limits the account", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/register",
      payload: { username: `acct${Date.now().toString(36)}`, password: "correct horse battery staple" },
      remoteAddress: "10.9.1.1",
    });
    const cookie = `cpxtb_session=${res.cookies.find((c) => c.name === "cpxtb_session")!.value}`;
    const statuses: number[] = [];
    for (let i = 0; i < 52; i++) {
      const r = await app.inject({ url: "/api/test/ip", headers: { cookie }, remoteAddress: "10.9.1.1" });
      statuses.push(r.statusCode);
    }
    expect(statuses.slice(0, 50).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(50)).toEqual([429, 429]);
    // The anonymous limit of the same address is its own (3).
    const anonymous: number[] = [];
    for (let i = 0; i < 4; i++)
      anonymous.push((await app.inject({ url: "/api/test/ip", remoteAddress: "10.9.1.2" })).statusCode);
    expect(anonymous).toEqual([200, 200, 200, 429]);
  });
});

describe("router errors in the error shape", () => {
  it("answers bad percent-encoding 400 and an over-long path parameter 414 with { error: { code, message } }", async () => {
    for (const url of ["/api/test/item/%", "/api/test/item/%zz", "/api/test/item/%ED%A0%80", "/pay/%zz"]) {
      const res = await app.inject({ url, remoteAddress: "10.9.2.1" });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ error: { code: "BAD_REQUEST", message: expect.any(String) } });
    }
    const long = await app.inject({ url: `/api/test/item/${"a".repeat(101)}`, remoteAddress: "10.9.2.2" });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ error: { code: "URI_TOO_LONG", message: expect.any(String) } });
  });
});

describe("a value the database refuses (issue 33, item 11)", () => {
  it("is a 400 in the error shape, logged as a warning without the statement, whatever the value", async () => {
    const lines: string[] = [];
    let db: Database["db"] | null = null;
    const logged = await createTestApp(
      { logLevel: "info" },
      {
        logStream: { write: (line: string) => lines.push(line) },
        // The value goes to the database as it came: no schema in front, as for any value a schema lets through.
        async extraRoutes(routes) {
          routes.get("/api/test/cast", async (request) => {
            const { value, type } = request.query as { value: string; type: string };
            const casts: Record<string, ReturnType<typeof sql>> = {
              date: sql`select ${value}::date as v`,
              timestamptz: sql`select ${value}::timestamptz as v`,
              int: sql`select ${value}::int as v`,
              bigint: sql`select ${value}::bigint as v`,
              numeric: sql`select ${value}::numeric(20, 2) as v`,
              interval: sql`select ${value}::interval as v`,
            };
            await db!.execute(casts[type]!);
            return { ok: true };
          });
          routes.get("/api/test/divide", async () => {
            await db!.execute(sql`select 1 / 0 as v`);
            return { ok: true };
          });
        },
      },
    );
    db = logged.database.db;
    try {
      for (const [type, value] of [
        ["date", "0000-01-01"],
        ["date", "10000000-01-01"],
        ["date", "2023-02-29"],
        ["date", "not a date"],
        ["timestamptz", "294277-01-01T00:00:00Z"],
        ["timestamptz", "2024-01-01T24:00:01Z"],
        ["timestamptz", "2024-01-01T00:00:00+25:00"],
        ["int", "2147483648"],
        ["int", "x"],
        ["bigint", "9223372036854775808"],
        ["numeric", "1e30"],
        ["interval", "999999999999 years"],
      ] as const) {
        lines.length = 0;
        const url = `/api/test/cast?type=${type}&value=${encodeURIComponent(value)}`;
        const res = await logged.inject({ url });
        expect(res.statusCode, `${type} ${value}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual({ error: { code: "VALIDATION_ERROR", message: expect.any(String) } });
        const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
        expect(
          entries.filter((e) => e.level >= 50),
          `${type} ${value}`,
        ).toEqual([]);
        expect(entries.some((e) => e.msg === "database refused a request value")).toBe(true);
        expect(lines.join("\n")).not.toMatch(/select|Failed query/i);
      }
      // Our own arithmetic failing is our fault: a 500, logged as an error.
      lines.length = 0;
      expect((await logged.inject({ url: "/api/test/divide" })).statusCode).toBe(500);
      expect(lines.some((line) => (JSON.parse(line) as { level: number }).level >= 50)).toBe(true);
    } finally {
      await logged.close();
    }
  });
});

/** One POST over a real TCP connection, writing `size` bytes as fast as the socket takes them. */
function postLarge(
  port: number,
  size: number,
  chunked: boolean,
  headers: Record<string, string> = {},
): Promise<{ status: number | null; body: string; error: string | null }> {
  return new Promise((resolve) => {
    let status: number | null = null;
    let body = "";
    let error: string | null = null;
    let settled = 0;
    const done = () => {
      // Both the answer read to its end and the request written (or failed): then we know all there is.
      if (++settled === 2) resolve({ status, body, error });
    };
    const req = http.request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/api/auth/login",
      agent: false,
      headers: {
        "content-type": "application/json",
        ...(chunked ? {} : { "content-length": String(size) }),
        ...headers,
      },
    });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      status = res.statusCode ?? null;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", done);
      res.on("error", (e) => {
        error ??= `response: ${e.message}`;
        done();
      });
    });
    let requestDone = false;
    const finishRequest = (e?: Error) => {
      if (requestDone) return;
      requestDone = true;
      if (e) error ??= `request: ${(e as NodeJS.ErrnoException).code ?? e.message}`;
      done();
      if (e && !answered) done();
    };
    req.on("error", finishRequest);
    req.on("finish", () => finishRequest());
    const piece = Buffer.alloc(64 * 1024, 0x61);
    piece[0] = 0x22; // '"': the body is one long JSON string
    let sent = 0;
    const write = () => {
      while (sent < size) {
        const n = Math.min(piece.length, size - sent);
        sent += n;
        if (!req.write(piece.subarray(0, n))) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

describe("a body over the limit, on a real connection (issue 33, item 12)", () => {
  it("is answered 413 in the error shape every time, read to its end rather than reset mid-send", async () => {
    const server = await createTestApp({ rateLimits: limits(1000) });
    try {
      await server.listen({ host: "127.0.0.1", port: 0 });
      const { port } = server.server.address() as AddressInfo;
      for (const chunked of [false, true]) {
        for (let i = 0; i < 5; i++) {
          const got = await postLarge(port, 5 * 1024 * 1024, chunked);
          const label = `${chunked ? "chunked" : "with Content-Length"} #${i + 1}`;
          expect(got.error, label).toBeNull();
          expect(got.status, label).toBe(413);
          expect(JSON.parse(got.body), label).toEqual({
            error: { code: "PAYLOAD_TOO_LARGE", message: expect.any(String) },
          });
        }
      }
      // The same for any answer given before the body is read: not JSON (415), a foreign origin (403).
      for (const [headers, status] of [
        [{ "content-type": "text/plain" }, 415],
        [{ origin: "https://evil.example" }, 403],
      ] as const) {
        for (const chunked of [false, true]) {
          const got = await postLarge(port, 5 * 1024 * 1024, chunked, headers);
          const label = `${JSON.stringify(headers)} ${chunked ? "chunked" : "with Content-Length"}`;
          expect(got.error, label).toBeNull();
          expect(got.status, label).toBe(status);
          expect(JSON.parse(got.body).error.code, label).toEqual(expect.any(String));
        }
      }
    } finally {
      await server.close();
    }
  });
});

describe("Content-Security-Policy", () => {
  it("lets the page connect only to its own origin (no ws:/wss: to any host)", async () => {
    const res = await app.inject({ url: "/api/health" });
    const csp = String(res.headers["content-security-policy"]);
    const connect = csp.split(";").find((d) => d.trim().startsWith("connect-src"))!;
    expect(connect.trim().split(/\s+/)).toEqual(["connect-src", "'self'", "ws://localhost:5000"]);
  });
});

describe("development mailbox", () => {
  it("keeps every message of one millisecond and logs no link in production", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-mailbox-"));
    const lines: string[] = [];
    const log = {
      info: (_fields: unknown, message: string) => lines.push(message),
    } as unknown as Parameters<typeof createMailer>[0]["log"];
    const mailer = createMailer({ smtpUrl: undefined, from: "a@b.test", dataDir, log, logText: false });
    const link = "https://pay.example/reset-password?token=secret-token-123";
    await Promise.all(
      Array.from({ length: 20 }, () => mailer.send({ to: "x@example.test", subject: "s", text: link })),
    );
    expect(
      readdirSync(join(dataDir, "mailbox")).filter((f) => f.endsWith("-x@example.test.eml")),
    ).toHaveLength(20);
    expect(lines.join("\n")).not.toContain("secret-token-123");
  });
});

describe("/ws: per-address cap and people, not sockets", () => {
  let url = "";
  const opened: WebSocket[] = [];
  afterAll(() => {
    for (const ws of opened) ws.terminate();
  });
  function connect(
    cookie?: string,
  ): Promise<{ ws: WebSocket; setCookie: string | undefined; status: number }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers: cookie ? { cookie } : {} });
      opened.push(ws);
      let setCookie: string | undefined;
      ws.once("upgrade", (res) => {
        setCookie = [res.headers["set-cookie"] ?? []].flat()[0];
      });
      ws.once("open", () => resolve({ ws, setCookie, status: 101 }));
      ws.once("unexpected-response", (_req, res) => resolve({ ws, setCookie, status: res.statusCode ?? 0 }));
      ws.once("error", reject);
    });
  }
  const closeAll = async () => {
    await Promise.all(
      opened.splice(0).map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === ws.CLOSED) return resolve();
            ws.once("close", () => resolve());
            ws.close();
          }),
      ),
    );
  };

  it("counts the tabs of one browser once and refuses connections over the address's cap", async () => {
    await app.listen({ host: "127.0.0.1", port: 0 });
    url = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;
    const first = await connect();
    expect(first.status).toBe(101);
    expect(first.setCookie).toMatch(
      /^cpxtb_browser=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
    );
    const cookie = first.setCookie!.split(";")[0]!;
    // A second tab of the same browser sends the cookie back: still one person.
    const second = await connect(cookie);
    expect(second.status).toBe(101);
    expect(second.setCookie).toBeUndefined();
    const watcher = await TestSocket.open(url, { headers: { cookie } });
    opened.push(watcher.ws);
    await watcher.untilCount(1);
    // The cap (3 here) counts sockets of the address: the fourth is refused before the upgrade.
    const fourth = await connect();
    expect(fourth.status).toBe(429);
    await closeAll();
    // Another browser is another person.
    const a = await connect();
    const b = await connect();
    const observer = await TestSocket.open(url, { headers: { cookie: a.setCookie!.split(";")[0]! } });
    opened.push(observer.ws);
    expect(b.setCookie).toBeDefined();
    await observer.untilCount(2);
    await closeAll();
  });

  it("a plain GET of /ws (no upgrade) is told to upgrade, with the usual error body", async () => {
    const res = await app.inject({ method: "GET", url: "/ws" });
    expect(res.statusCode).toBe(426);
    expect(res.headers.upgrade).toBe("websocket");
    expect(res.json()).toEqual({
      error: {
        code: "UPGRADE_REQUIRED",
        message: "This address is the live connection: open it as a WebSocket.",
      },
    });
  });
});
