import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { WebSocket } from "ws";
import type * as z from "zod";

/** One open /ws connection, as features see it. */
export type RealtimeConnection = {
  readonly id: string;
  readonly ip: string;
  /** The browser this connection comes from (its tabs share one id; see routes.ts): counts people, not sockets. */
  readonly browserId: string;
  /** Cookies of the upgrade request: features authorise subscriptions from the session cookie. */
  readonly cookies: Readonly<Record<string, string | undefined>>;
  /** Sends a JSON message; silently skipped when the socket is no longer open. */
  send(message: { type: string; [key: string]: unknown }): void;
  /** Per-connection state a feature keeps (for example its subscriptions), keyed by feature. */
  readonly data: Map<string, unknown>;
  onClose(listener: () => void): void;
};

type Route = {
  schema: z.ZodType;
  handler: (message: unknown, connection: RealtimeConnection) => void | Promise<void>;
};

type Connection = RealtimeConnection & {
  socket: WebSocket;
  alive: boolean;
  closeListeners: (() => void)[];
  warnings: number;
  tokens: number;
  refilledAt: number;
};

export type RealtimeHubOptions = {
  pingIntervalMs: number;
  log: FastifyBaseLogger;
  /** Messages a client may send per second, with a burst of twice that; the excess is dropped. */
  messagesPerSecond?: number;
};

/** Log lines about one connection's bad messages stop after this many, so a noisy client cannot flood the log. */
const MAX_WARNINGS_PER_CONNECTION = 5;

/**
 * The connections of this instance and a router from message `type` to handler. Features register their
 * message types (`handle`) and react to connections coming and going; nothing here knows about any feature.
 */
export class RealtimeHub {
  private connections = new Set<Connection>();
  private perAddress = new Map<string, number>();
  private perBrowser = new Map<string, number>();
  private routes = new Map<string, Route>();
  private connectListeners: ((connection: RealtimeConnection) => void)[] = [];
  private disconnectListeners: ((connection: RealtimeConnection) => void)[] = [];
  private pinger: NodeJS.Timeout;
  private readonly rate: number;

  constructor(private options: RealtimeHubOptions) {
    this.rate = options.messagesPerSecond ?? 20;
    this.pinger = setInterval(() => this.pingAll(), options.pingIntervalMs);
    this.pinger.unref();
  }

  get size() {
    return this.connections.size;
  }

  /** Distinct browsers with an open connection on this instance: several tabs of one browser count once. */
  get browsers() {
    return this.perBrowser.size;
  }

  /** Open connections of one client address on this instance. */
  connectionsFrom(ip: string): number {
    return this.perAddress.get(ip) ?? 0;
  }

  /** Routes messages of `type`, validated by `schema`; invalid ones are logged and ignored. */
  handle<S extends z.ZodType>(
    type: string,
    schema: S,
    handler: (message: z.infer<S>, connection: RealtimeConnection) => void | Promise<void>,
  ) {
    if (this.routes.has(type))
      throw new Error(`A handler for realtime message type "${type}" already exists`);
    this.routes.set(type, { schema, handler: handler as Route["handler"] });
  }

  onConnect(listener: (connection: RealtimeConnection) => void) {
    this.connectListeners.push(listener);
  }

  onDisconnect(listener: (connection: RealtimeConnection) => void) {
    this.disconnectListeners.push(listener);
  }

  /** Sends one message to every connection of this instance (serialised once). */
  broadcast(message: { type: string; [key: string]: unknown }) {
    // Encoded once: sending a string would make ws encode it again for every socket.
    const data = Buffer.from(JSON.stringify(message));
    const options = { binary: false };
    for (const connection of this.connections) {
      if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(data, options);
    }
  }

  attach(
    socket: WebSocket,
    ip: string,
    cookies: Readonly<Record<string, string | undefined>> = {},
    browserId: string = randomUUID(),
  ) {
    const connection: Connection = {
      id: randomUUID(),
      ip,
      browserId,
      cookies,
      socket,
      data: new Map(),
      alive: true,
      closeListeners: [],
      warnings: 0,
      tokens: this.rate * 2,
      refilledAt: Date.now(),
      send(message) {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      },
      onClose(listener) {
        this.closeListeners.push(listener);
      },
    };
    this.connections.add(connection);
    this.perAddress.set(ip, this.connectionsFrom(ip) + 1);
    this.perBrowser.set(browserId, (this.perBrowser.get(browserId) ?? 0) + 1);

    socket.on("pong", () => {
      connection.alive = true;
    });
    socket.on("message", (data, isBinary) => this.receive(connection, data, isBinary));
    // 'error' covers protocol violations, including a message over the size limit (ws then closes with 1009).
    socket.on("error", (error) => this.warn(connection, `closed after a socket error: ${error.message}`));
    socket.on("close", () => this.detach(connection));

    for (const listener of this.connectListeners) this.safely(() => listener(connection));
  }

  private detach(connection: Connection) {
    if (!this.connections.delete(connection)) return;
    countDown(this.perAddress, connection.ip);
    countDown(this.perBrowser, connection.browserId);
    for (const listener of connection.closeListeners) this.safely(listener);
    for (const listener of this.disconnectListeners) this.safely(() => listener(connection));
  }

  private receive(connection: Connection, data: unknown, isBinary: boolean) {
    if (!this.takeToken(connection)) return this.warn(connection, "message dropped: too many messages");
    if (isBinary) return this.warn(connection, "binary message ignored");
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      return this.warn(connection, "malformed message ignored: not JSON");
    }
    const type = (parsed as { type?: unknown } | null)?.type;
    if (typeof parsed !== "object" || parsed === null || typeof type !== "string") {
      return this.warn(connection, "malformed message ignored: no string type");
    }
    const route = this.routes.get(type);
    if (!route) return this.warn(connection, `message of unknown type ignored: ${type.slice(0, 64)}`);
    const result = route.schema.safeParse(parsed);
    if (!result.success) return this.warn(connection, `invalid ${type} message ignored`);
    this.safely(() => route.handler(result.data, connection));
  }

  private takeToken(connection: Connection) {
    const now = Date.now();
    connection.tokens = Math.min(
      this.rate * 2,
      connection.tokens + ((now - connection.refilledAt) / 1000) * this.rate,
    );
    connection.refilledAt = now;
    if (connection.tokens < 1) return false;
    connection.tokens -= 1;
    return true;
  }

  private warn(connection: Connection, message: string) {
    connection.warnings += 1;
    if (connection.warnings > MAX_WARNINGS_PER_CONNECTION) return;
    this.options.log.warn({ connection: connection.id, ip: connection.ip }, `ws: ${message}`);
  }

  /** A handler's failure is logged and stays with that message: it never affects other connections. */
  private safely(run: () => void | Promise<void>) {
    try {
      const result = run();
      if (result instanceof Promise)
        result.catch((error) => this.options.log.error({ err: error }, "ws handler failed"));
    } catch (error) {
      this.options.log.error({ err: error }, "ws handler failed");
    }
  }

  /** A connection that did not answer the previous ping is gone (closed laptop, dead network): drop it. */
  private pingAll() {
    for (const connection of this.connections) {
      if (!connection.alive) {
        connection.socket.terminate();
        this.detach(connection);
        continue;
      }
      connection.alive = false;
      try {
        connection.socket.ping();
      } catch {
        // The socket is closing; its 'close' event detaches it.
      }
    }
  }

  close() {
    clearInterval(this.pinger);
  }
}

function countDown(counts: Map<string, number>, key: string) {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
