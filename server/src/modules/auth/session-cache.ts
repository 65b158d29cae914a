import { randomUUID } from "node:crypto";
import type { DbOrTx } from "../../db/client.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import { findLiveSessionByTokenHash, type SessionRow, type UserRow } from "./repository.ts";

/**
 * Recently validated sessions of this instance, so a signed-in request does not cost a database query each
 * time. Entries live 2 s. Every write that ends a session or changes a user calls `changed` after its commit:
 * this instance forgets that user's entries at once, and the change is published through the shared state so
 * every other instance forgets them before it answers another request (decision 004). While the shared state
 * is not shared (Redis away, `status().mode === "local"`) nothing is cached: each request reads the database,
 * so a revocation made on another instance still counts at once.
 */
export const SESSION_CACHE_TTL_MS = 2000;
const TTL_MS = SESSION_CACHE_TTL_MS;
const MAX_ENTRIES = 10_000;
export const SESSIONS_CHANGED_CHANNEL = "sessions:changed";

type Auth = { session: SessionRow; user: UserRow };
type Entry = Auth & { cachedAt: number; epoch: number };
/** A change (`userId`), or an instance's word that it has forgotten change `id` of instance `to` (`heard`). */
type Message =
  | { from: string; id: number; userId: string; ended: boolean }
  | { from: string; heard: { to: string; id: number } };

export class SessionCache {
  private readonly instanceId = randomUUID();
  private entries = new Map<string, Entry>();
  /** Lookups in flight: concurrent requests of one session whose cache entry just expired share one query. */
  private inFlight = new Map<string, Promise<Auth | null>>();
  /** Bumped by every change heard: a lookup that started before one does not cache what it read. */
  private version = 0;
  private endedListeners: ((userId: string) => void)[] = [];
  private unsubscribe: (() => Promise<void>) | null = null;
  private sent = 0;
  /** Changes of this instance waiting for the other instances' word, by id: the instances heard so far. */
  private waiting = new Map<number, { heard: Set<string>; check: () => void }>();

  constructor(
    private readonly state: SharedState,
    private readonly log: { warn: (obj: object, msg: string) => void },
  ) {}

  async start() {
    this.unsubscribe = await this.state.subscribe(SESSIONS_CHANGED_CHANNEL, (text) => {
      let message: Message;
      try {
        message = JSON.parse(text) as Message;
      } catch {
        return;
      }
      if (message.from === this.instanceId) return;
      if ("heard" in message) {
        if (message.heard?.to !== this.instanceId) return;
        const waiting = this.waiting.get(message.heard.id);
        waiting?.heard.add(message.from);
        waiting?.check();
        return;
      }
      if (typeof message.userId !== "string" || typeof message.id !== "number") return;
      this.forget(message.userId, message.ended === true);
      const heard: Message = { from: this.instanceId, heard: { to: message.from, id: message.id } };
      this.state
        .publish(SESSIONS_CHANGED_CHANNEL, JSON.stringify(heard))
        .catch((error) => this.log.warn({ err: error }, "sessions: could not confirm a change"));
    });
  }

  async stop() {
    await this.unsubscribe?.();
    this.entries.clear();
  }

  /** Called when sessions of a user may have ended (sign-out, password change or reset, revocation). */
  onSessionsEnded(listener: (userId: string) => void) {
    this.endedListeners.push(listener);
  }

  private epoch(): number | null {
    const status = this.state.status?.();
    if (!status) return 0;
    return status.mode === "shared" ? status.epoch : null;
  }

  get(tokenHash: string, now: number): Auth | null {
    const entry = this.entries.get(tokenHash);
    if (!entry) return null;
    if (
      now - entry.cachedAt >= TTL_MS ||
      entry.session.expiresAt.getTime() <= now ||
      entry.epoch !== this.epoch()
    ) {
      this.entries.delete(tokenHash);
      return null;
    }
    return entry;
  }

  /** The live session with this token hash: from the cache, or read from the database (and cached). */
  lookup(db: DbOrTx, tokenHash: string, now: Date): Promise<Auth | null> {
    const cached = this.get(tokenHash, now.getTime());
    if (cached) return Promise.resolve(cached);
    let pending = this.inFlight.get(tokenHash);
    if (!pending) {
      const version = this.version;
      const epoch = this.epoch();
      pending = findLiveSessionByTokenHash(db, tokenHash, now)
        .then((found) => {
          if (found && version === this.version && epoch !== null && epoch === this.epoch()) {
            this.put(tokenHash, found, now.getTime(), epoch);
          }
          return found ?? null;
        })
        .finally(() => this.inFlight.delete(tokenHash));
      this.inFlight.set(tokenHash, pending);
    }
    return pending;
  }

  private put(tokenHash: string, auth: Auth, now: number, epoch: number) {
    if (this.entries.size >= MAX_ENTRIES) {
      // Map iteration is insertion order: drop the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, { ...auth, cachedAt: now, epoch });
  }

  private forget(userId: string, ended: boolean) {
    this.version += 1;
    for (const [key, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(key);
    // Lookups in flight may have read the row before the change: they must not be shared with later requests.
    this.inFlight.clear();
    if (ended) for (const listener of this.endedListeners) listener(userId);
  }

  /**
   * After a committed write that changed a user (`ended`: some of their sessions ended): forgets here, tells
   * every instance, and returns once none can still answer from what it cached before: every other instance
   * subscribed has said it forgot, or TTL_MS has passed, after which whatever was cached before the commit
   * has expired anyway (an instance that is slow, gone or unreachable). Awaited, so the answer to the request
   * that made the change leaves after every instance has stopped accepting the old sessions.
   */
  async changed(userId: string, { ended }: { ended: boolean }) {
    this.forget(userId, ended);
    this.sent += 1;
    const id = this.sent;
    const heard = new Set<string>();
    let others: number | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const allHeard = new Promise<boolean>((resolve) => {
      this.waiting.set(id, {
        heard,
        check: () => {
          if (others !== null && heard.size >= others) resolve(true);
        },
      });
      timer = setTimeout(() => resolve(false), TTL_MS);
    });
    try {
      const message: Message = { from: this.instanceId, id, userId, ended };
      try {
        // Redis counts the instances subscribed, this one included. One cut off from Redis is not counted and
        // did not hear it: only the deadline covers it, so a change made while this one is cut off waits it out.
        const receivers = await this.state.publish(SESSIONS_CHANGED_CHANNEL, JSON.stringify(message));
        // No `status`: the in-process state of a single instance, which has nobody else to tell.
        if (!this.state.status) return;
        if (receivers !== null && this.state.status().mode === "shared") others = Math.max(0, receivers - 1);
        this.waiting.get(id)?.check();
      } catch (error) {
        this.log.warn({ err: error }, "sessions: could not announce a change to other instances");
      }
      if (!(await allHeard) && others !== null) {
        this.log.warn(
          { instances: others, confirmed: heard.size },
          "sessions: not every instance confirmed a change; waited until what they cached had expired",
        );
      }
    } finally {
      clearTimeout(timer);
      this.waiting.delete(id);
    }
  }
}

declare module "fastify" {
  interface FastifyInstance {
    /** Validated sessions of this instance, forgotten everywhere when they end (see session-cache.ts). */
    sessionCache: SessionCache;
  }
}
