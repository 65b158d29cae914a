import { type ChildProcess, spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { ClientOptions } from "ws";
import type { App } from "../src/app.ts";
import type { RealtimeConfig } from "../src/config.ts";
import { createTestApp } from "./helpers.ts";
import { redisUrl, TestSocket, uniquePrefix } from "./ws-client.ts";

const fast: RealtimeConfig = {
  maxMessageBytes: 1024,
  pingIntervalMs: 30_000,
  heartbeatMs: 200,
  broadcastDelayMs: 50,
  maxConnectionsPerAddress: 1000,
};

async function listen(app: App) {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `ws://127.0.0.1:${port}/ws`, port };
}

const sockets: TestSocket[] = [];
async function open(url: string, options?: ClientOptions) {
  const socket = await TestSocket.open(url, options);
  sockets.push(socket);
  return socket;
}
afterAll(async () => {
  await Promise.allSettled(sockets.map((s) => s.close()));
});

const single = await createTestApp({ realtime: fast, publicUrl: "https://pay.example.com" });
const { url, port } = await listen(single);
const pinging = await createTestApp({ realtime: { ...fast, pingIntervalMs: 100 } });
const pingingUrl = (await listen(pinging)).url;
const prefix = uniquePrefix("live-users");
const urlA = (await listen(await createTestApp({ realtime: fast, redisUrl, redisKeyPrefix: prefix }))).url;
const urlB = (await listen(await createTestApp({ realtime: fast, redisUrl, redisKeyPrefix: prefix }))).url;

describe("live users on one instance", () => {
  it("greets with the count, answers getUserCount, pushes changes to everyone", async () => {
    const a = await open(url);
    expect(await a.next((m) => m.type === "connected")).toEqual({ type: "connected", userCount: 1 });
    const b = await open(url);
    const c = await open(url);
    expect(await c.next((m) => m.type === "connected")).toEqual({ type: "connected", userCount: 3 });
    await a.untilCount(3);
    await b.untilCount(3);

    const before = a.messages.length;
    a.send({ type: "getUserCount" });
    expect(await a.next((m) => m.type === "userCount", 2000, before)).toEqual({
      type: "userCount",
      count: 3,
    });

    await c.close();
    await a.untilCount(2);
    await b.untilCount(2);
    await Promise.all([a.close(), b.close()]);
  });

  it("coalesces a burst of connections into a bounded number of updates", async () => {
    const watcher = await open(url);
    await watcher.untilCount(1);
    const before = watcher.messages.length;
    const started = Date.now();
    const burst = await Promise.all(Array.from({ length: 30 }, () => open(url)));
    try {
      await watcher.untilCount(31);
      const elapsed = Date.now() - started;
      await new Promise((r) => setTimeout(r, 100));
      const updates = watcher.messages.slice(before).filter((m) => m.type === "userCount");
      // At most one update per coalescing delay while the burst lasts, plus the final one; never one per connection
      // (unless the connections themselves arrive further apart than the delay, as on a very busy machine).
      expect(updates.length).toBeLessThanOrEqual(Math.ceil(elapsed / fast.broadcastDelayMs) + 1);
    } finally {
      await Promise.all([...burst, watcher].map((s) => s.close()));
    }
  });

  it("ignores malformed, unknown and binary messages without disconnecting anyone", async () => {
    const noisy = await open(url);
    const bystander = await open(url);
    await bystander.untilCount(2);
    noisy.send("this is not json");
    noisy.send("[1,2,3]");
    noisy.send({ no: "type" });
    noisy.send({ type: "launchMissiles" });
    noisy.send({ type: 42 });
    noisy.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    const before = noisy.messages.length;
    noisy.send({ type: "getUserCount" });
    expect(await noisy.next((m) => m.type === "userCount", 2000, before)).toEqual({
      type: "userCount",
      count: 2,
    });
    expect(noisy.closeCode).toBeNull();
    expect(bystander.closeCode).toBeNull();
    await Promise.all([noisy.close(), bystander.close()]);
  });

  it("closes a connection that sends a message over the size limit (1009), others unaffected", async () => {
    const big = await open(url);
    const bystander = await open(url);
    await bystander.untilCount(2);
    big.send({ type: "getUserCount", padding: "x".repeat(2000) });
    expect(await big.closed()).toBe(1009);
    await bystander.untilCount(1);
    await bystander.close();
  });

  it("keeps nothing of the upgrade's HTTP exchange per connection, and still hears socket errors", async () => {
    const socket = await open(url);
    await socket.next((m) => m.type === "connected");
    const hub = single.realtime as unknown as { connections: Set<{ socket: import("ws").WebSocket }> };
    const server = [...hub.connections].map((c) => c.socket);
    expect(server.length).toBeGreaterThan(0);
    for (const ws of server) {
      // No ServerResponse left as the TCP socket's message (it holds the request and its headers).
      expect(
        (ws as unknown as { _socket: { _httpMessage?: unknown } })._socket._httpMessage ?? null,
      ).toBeNull();
      // One 'error' listener: the hub's (the plugin's closed over the Fastify request and reply).
      expect(ws.listenerCount("error")).toBe(1);
    }
    await socket.close();
  });

  it("accepts its own origin and PUBLIC_URL, refuses a foreign origin", async () => {
    const own = await open(url, { headers: { origin: `http://127.0.0.1:${port}` } });
    const viaProxy = await open(url, { headers: { origin: "https://pay.example.com" } });
    await expect(TestSocket.open(url, { headers: { origin: "https://evil.example" } })).rejects.toThrow(
      "HTTP 403",
    );
    await expect(TestSocket.open(url, { headers: { origin: "null" } })).rejects.toThrow("HTTP 403");
    await Promise.all([own.close(), viaProxy.close()]);
  });
});

describe("live users heartbeat", () => {
  it("drops a client that stops answering pings and lowers the count", async () => {
    const healthy = await open(pingingUrl);
    const silent = await open(pingingUrl, { autoPong: false });
    await healthy.untilCount(2);
    expect(await silent.closed(2000)).toBe(1006);
    await healthy.untilCount(1);
    expect(healthy.closeCode).toBeNull();
    await healthy.close();
  });
});

describe("live users across instances (Redis)", () => {
  it("counts connections of both instances, and both agree", async () => {
    const a1 = await open(urlA);
    const a2 = await open(urlA);
    const b1 = await open(urlB);
    for (const s of [a1, a2, b1]) await s.untilCount(3);
    await a2.close();
    await a1.untilCount(2);
    await b1.untilCount(2);
    b1.send({ type: "getUserCount" });
    await b1.next((m) => m.type === "userCount" && m.count === 2);
    await Promise.all([a1.close(), b1.close()]);
  });

  it("forgets the connections of an instance that was killed", { timeout: 90_000 }, async () => {
    const watcher = await open(urlA);
    await watcher.untilCount(1);
    const child = await startInstance(prefix);
    try {
      const c1 = await open(child.url);
      const c2 = await open(child.url);
      await watcher.untilCount(3);
      await c2.next((m) => m.type === "userCount" && m.count === 3);
      child.process.kill("SIGKILL");
      await Promise.all([c1.closed(), c2.closed()]);
      // Its heartbeat (3 x 200 ms) expires; the next beat of instance A notices.
      const killedAt = Date.now();
      // Seconds, not the heartbeat's 600 ms: what is proven is that the heartbeat forgets it (there is no other
      // way), and a busy machine delays timers.
      await watcher.untilCount(1, 15_000);
      expect(Date.now() - killedAt).toBeLessThan(15_000);
    } finally {
      child.process.kill("SIGKILL");
    }
    await watcher.close();
  });
});

async function startInstance(prefix: string): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/test/fixtures/live-users-instance.ts"], {
    env: { ...process.env, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`instance did not start: ${out}`)), 60_000);
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = /listening (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(`${match[1]!.replace("http:", "ws:")}/ws`);
      }
    });
    child.once("exit", (code) => reject(new Error(`instance exited with ${code}: ${out}`)));
  });
  return { process: child, url };
}
