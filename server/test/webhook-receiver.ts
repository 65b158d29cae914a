import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedWebhook = {
  path: string;
  id: string;
  timestamp: string;
  signatures: string[];
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
  headers: IncomingHttpHeaders;
  at: number;
};

/**
 * The Standard Webhooks check, written here independently of the server's code: HMAC-SHA256 of
 * "id.timestamp.body" keyed with the base64-decoded part of the secret after `whsec_`, base64, compared with each
 * space-separated `v1,` signature. True when one of them matches.
 */
export function verifySignature(
  secret: string,
  message: { id: string; timestamp: string; body: string; signatures: string[] },
) {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key)
    .update(`${message.id}.${message.timestamp}.${message.body}`)
    .digest();
  return message.signatures.some((s) => {
    const [version, value] = s.split(",");
    if (version !== "v1" || !value) return false;
    const got = Buffer.from(value, "base64");
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

/**
 * A real HTTP server on a loopback port (the merchant's side): it keeps every request and answers each path with
 * the next status of its script (200 once the script is used up).
 */
export async function startReceiver() {
  const received: ReceivedWebhook[] = [];
  const scripts = new Map<string, number[]>();
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "/";
      let json: ReceivedWebhook["json"];
      try {
        json = JSON.parse(body);
      } catch {
        json = { type: "unparsable", timestamp: "", data: {} };
      }
      received.push({
        path,
        id: String(req.headers["webhook-id"] ?? ""),
        timestamp: String(req.headers["webhook-timestamp"] ?? ""),
        signatures: String(req.headers["webhook-signature"] ?? "")
          .split(" ")
          .filter(Boolean),
        body,
        json,
        headers: req.headers,
        at: Date.now(),
      });
      const status = scripts.get(path)?.shift() ?? 200;
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status === 200 ? "ok" : `status ${status}`);
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    received,
    /** The statuses the next requests to `path` get, in order. */
    script(path: string, statuses: number[]) {
      scripts.set(path, [...statuses]);
    },
    at: (path: string) => received.filter((r) => r.path === path),
    async waitFor(predicate: (all: ReceivedWebhook[]) => boolean, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
