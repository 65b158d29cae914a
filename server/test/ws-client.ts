import WebSocket from "ws";

/** A test WebSocket client that keeps every message and can wait for one matching a predicate. */
export class TestSocket {
  readonly messages: Record<string, unknown>[] = [];
  closeCode: number | null = null;
  private waiters: {
    match: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }[] = [];
  private closeWaiters: ((code: number) => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(message)) return true;
        w.resolve(message);
        return false;
      });
    });
    ws.on("close", (code) => {
      this.closeCode = code;
      for (const w of this.closeWaiters) w(code);
    });
    ws.on("error", () => {});
  }

  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options);
      const socket = new TestSocket(ws);
      ws.once("open", () => resolve(socket));
      ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once("error", reject);
    });
  }

  /** Resolves with the first message (already received or future) matching `match`. */
  next(
    match: (m: Record<string, unknown>) => boolean,
    timeoutMs = 30_000,
    fromIndex = 0,
  ): Promise<Record<string, unknown>> {
    const seen = this.messages.slice(fromIndex).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`)),
        timeoutMs,
      );
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Waits until the latest pushed count equals `count`. */
  async untilCount(count: number, timeoutMs = 30_000) {
    const latest = () => {
      const last = [...this.messages].reverse().find((m) => m.type === "userCount" || m.type === "connected");
      return last ? (last.type === "connected" ? last.userCount : last.count) : undefined;
    };
    const deadline = Date.now() + timeoutMs;
    while (latest() !== count) {
      if (Date.now() > deadline) throw new Error(`count is ${latest()}, expected ${count}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  send(message: unknown) {
    this.ws.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  closed(timeoutMs = 30_000): Promise<number> {
    if (this.closeCode !== null) return Promise.resolve(this.closeCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("socket not closed")), timeoutMs);
      this.closeWaiters.push((code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  async close() {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await this.closed();
  }
}

export const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
export const uniquePrefix = (name: string) =>
  `test:${name}:${process.pid}:${Math.random().toString(36).slice(2, 10)}:`;
