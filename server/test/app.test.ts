import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { AppError } from "../src/errors.ts";
import { createTestApp } from "./helpers.ts";

const THEME_SCRIPT = "document.documentElement.classList.add('dark')";

function makeClientBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), "cpxtb-client-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html><html><head><script>${THEME_SCRIPT}</script><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>`,
  );
  const js = "console.log('app');".repeat(100);
  writeFileSync(join(dir, "assets/index-abc123.js"), js);
  writeFileSync(join(dir, "assets/index-abc123.js.br"), brotliCompressSync(js));
  writeFileSync(join(dir, "assets/index-abc123.js.gz"), gzipSync(js));
  writeFileSync(join(dir, "humans.txt"), "Team: CPXTB Pay\n");
  return dir;
}

const app = await createTestApp({ clientDist: makeClientBuild() });
const appWithRoutes = await createTestApp(
  { bodyLimitBytes: 2048 },
  {
    async extraRoutes(routes) {
      routes.post(
        "/api/test/echo",
        { schema: { body: z.object({ name: z.string().min(2), amount: z.number().int().positive() }) } },
        async (request) => ({ received: request.body }),
      );
      routes.get("/api/test/boom", async () => {
        throw new Error("database password is hunter2");
      });
      routes.get("/api/test/conflict", async () => {
        throw new AppError("CONFLICT", "That name is taken.");
      });
    },
  },
);

describe("health", () => {
  it("answers liveness with a request id and security headers", async () => {
    const res = await app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "ok" });
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
  });

  it("keeps a well-formed incoming request id and replaces a malformed one", async () => {
    const kept = await app.inject({ url: "/api/health", headers: { "x-request-id": "lb-123.abc" } });
    expect(kept.headers["x-request-id"]).toBe("lb-123.abc");
    const replaced = await app.inject({ url: "/api/health", headers: { "x-request-id": "<script>" } });
    expect(replaced.headers["x-request-id"]).not.toBe("<script>");
  });

  it("reports ready when the database answers and every migration is applied", async () => {
    const res = await app.inject({ method: "GET", url: "/api/ready" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: "ready",
      database: { driver: process.env.DATABASE_URL ? "pg" : "pglite" },
      sharedState: { kind: "memory", mode: "shared", since: null },
    });
  });
});

describe("errors", () => {
  it("answers unknown API routes with 404 in the error shape", async () => {
    const res = await app.inject({ method: "GET", url: "/api/does-not-exist" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: "NOT_FOUND", message: "No such resource: GET /api/does-not-exist" },
    });
  });

  it("answers a wrong method on a known route with 405 and Allow", async () => {
    const res = await app.inject({ method: "DELETE", url: "/api/health" });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toContain("GET");
    expect(res.json().error.code).toBe("METHOD_NOT_ALLOWED");
  });

  it("never answers a non-GET to a page path with the SPA", async () => {
    const res = await app.inject({ method: "POST", url: "/merchant" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("NOT_FOUND");
  });
});

describe("request log", () => {
  it("writes one line per request when it is answered, and still logs a server error with its cause", async () => {
    const lines: string[] = [];
    const logged = await createTestApp(
      { logLevel: "info" },
      {
        logStream: { write: (line: string) => lines.push(line) },
        async extraRoutes(routes) {
          routes.get("/api/test/boom", async () => {
            throw new Error("the disk is full");
          });
          routes.get("/api/test/careless", async (request) => {
            const error = Object.assign(new Error("sign-in failed"), { token: "tok-secret-1" });
            request.log.warn({ body: { username: "ann", password: "hunter2" }, err: error }, "careless line");
            return { ok: true };
          });
        },
      },
    );
    try {
      lines.length = 0;
      await logged.inject({ method: "GET", url: "/api/health?token=abc" });
      const entries = lines.map((line) => JSON.parse(line));
      expect(entries).toEqual([
        expect.objectContaining({
          msg: "request completed",
          req: expect.objectContaining({ method: "GET", url: "/api/health?token=[redacted]" }),
          res: { statusCode: 200 },
          responseTime: expect.any(Number),
        }),
      ]);
      lines.length = 0;
      expect((await logged.inject({ method: "GET", url: "/api/test/boom" })).statusCode).toBe(500);
      const log = lines.map((line) => JSON.parse(line));
      expect(log.some((e) => e.level >= 50 && JSON.stringify(e).includes("the disk is full"))).toBe(true);
      expect(log.filter((e) => e.msg === "request completed")).toHaveLength(1);
      // A secret one level down in a logged object is replaced, in a plain object and in an error, which keeps
      // its message and stack.
      lines.length = 0;
      await logged.inject({ method: "GET", url: "/api/test/careless" });
      const careless = lines.map((line) => JSON.parse(line)).find((e) => e.msg === "careless line");
      expect(careless.body).toEqual({ username: "ann", password: "[redacted]" });
      expect(careless.err).toMatchObject({ message: "sign-in failed", token: "[redacted]" });
      expect(careless.err.stack).toContain("sign-in failed");
      expect(lines.join("")).not.toMatch(/hunter2|tok-secret-1/);
    } finally {
      await logged.close();
    }
  });
});

describe("request bodies", () => {
  const post = (payload: string, contentType = "application/json") =>
    appWithRoutes.inject({
      method: "POST",
      url: "/api/test/echo",
      payload,
      headers: { "content-type": contentType },
    });

  it("accepts a valid JSON body", async () => {
    const res = await post(JSON.stringify({ name: "Ada", amount: 3 }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: { name: "Ada", amount: 3 } });
  });

  it("answers malformed JSON with 400 INVALID_JSON", async () => {
    const res = await post('{"name": "Ada",');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: "INVALID_JSON", message: "The request body is not valid JSON." },
    });
  });

  it("answers schema violations with 400 naming each field", async () => {
    const res = await post(JSON.stringify({ name: "A", amount: -1 }));
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.message).toContain("name:");
    expect(error.message).toContain("amount:");
  });

  it("answers a body over the limit with 413", async () => {
    const res = await post(JSON.stringify({ name: "x".repeat(5000), amount: 1 }));
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("refuses bodies that are not JSON with 415", async () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const res = await post("name=Ada", type);
      expect(res.statusCode, type).toBe(415);
      expect(res.json().error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    }
  });

  it("hides the message of unexpected errors", async () => {
    const res = await appWithRoutes.inject({ method: "GET", url: "/api/test/boom" });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain("hunter2");
    expect(res.json().error.code).toBe("INTERNAL_ERROR");
  });

  it("maps application errors to their status", async () => {
    const res = await appWithRoutes.inject({ method: "GET", url: "/api/test/conflict" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { code: "CONFLICT", message: "That name is taken." } });
  });
});

describe("client build", () => {
  it("serves hashed assets immutable and precompressed", async () => {
    const br = await app.inject({
      url: "/assets/index-abc123.js",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const gz = await app.inject({ url: "/assets/index-abc123.js", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    const plain = await app.inject({ url: "/assets/index-abc123.js" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toContain("console.log('app')");
    // The compressed twins are what is sent in the file's place, not addresses of their own.
    for (const twin of ["/assets/index-abc123.js.br", "/assets/index-abc123.js.gz"]) {
      const res = await app.inject({ url: twin, headers: { "accept-encoding": "br, gzip" } });
      expect(res.statusCode, twin).toBe(404);
      expect(res.json().error.code, twin).toBe("NOT_FOUND");
    }
  });

  it("answers every client route with index.html, and unknown page paths with 404 and the same app", async () => {
    // The app shows its not-found page for an unknown post or path; the status tells crawlers and tools.
    const missing = new Set(["/blog/some-post", "/no/such/page?x=1", "/merchant/extra", "/pay"]);
    for (const path of ["/", "/merchant", "/Merchant/", "/pay/abc123", "/payment", ...missing]) {
      const res = await app.inject({ url: path });
      expect(res.statusCode, path).toBe(missing.has(path) ? 404 : 200);
      expect(res.headers["content-type"], path).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"], path).toBe("no-cache");
      expect(res.body, path).toContain('<div id="root">');
    }
  });

  it("compresses index.html for clients that accept it", async () => {
    const res = await app.inject({ url: "/merchant", headers: { "accept-encoding": "gzip, br;q=0" } });
    expect(res.headers["content-encoding"]).toBe("gzip");
  });

  it("does not answer a missing asset with the page", async () => {
    const res = await app.inject({ url: "/assets/missing-123.js" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("NOT_FOUND");
  });

  it("allows exactly the page's inline script in the CSP", async () => {
    const res = await app.inject({ url: "/" });
    const { createHash } = await import("node:crypto");
    const hash = createHash("sha256").update(THEME_SCRIPT).digest("base64");
    expect(res.headers["content-security-policy"]).toContain(`script-src 'self' 'sha256-${hash}'`);
    const scriptSrc = String(res.headers["content-security-policy"])
      .split(";")
      .find((d) => d.startsWith("script-src "));
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${hash}'`);
  });

  it("serves other public files with a short cache", async () => {
    const res = await app.inject({ url: "/humans.txt" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("serves a robots file that keeps private pages out and names the sitemap at the public origin", async () => {
    // A forged Host never ends up in the file (decision 010): the sitemap is named at the configured origin.
    const res = await app.inject({ url: "/robots.txt", headers: { host: "evil.example:8080" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(res.body).toMatch(/^User-agent: \*$/m);
    expect(res.body).toMatch(/^Disallow: \/merchant$/m);
    expect(res.body).toMatch(/^Disallow: \/pay\/$/m);
    // Payment links' pages are checkouts like /pay/; the Links screen is the dashboard's.
    expect(res.body).toMatch(/^Disallow: \/l\/$/m);
    expect(res.body).toMatch(/^Disallow: \/links$/m);
    expect(res.body).not.toMatch(/^Disallow: \/$/m);
    expect(res.body).toMatch(/^Sitemap: http:\/\/localhost:5000\/sitemap\.xml$/m);
    expect(res.body).not.toContain("evil.example");
  });
});
