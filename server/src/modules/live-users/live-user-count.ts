import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import type { RealtimeHub } from "../realtime/hub.ts";

const HEARTBEAT_GROUP = "live-users";
const CHANGED_CHANNEL = "live-users:changed";

export type LiveUserCountOptions = {
  heartbeatMs: number;
  broadcastDelayMs: number;
  log: FastifyBaseLogger;
  instanceId?: string;
};

/**
 * The number of people on the site: browsers with an open /ws connection (a browser's tabs count once; see
 * realtime/routes.ts), summed over all instances. Each instance publishes its own count as a
 * heartbeat that expires after three missed beats (so a killed instance stops counting) and announces
 * changes on a channel; every instance sums the live heartbeats. Changes are coalesced: however many
 * connections come and go within `broadcastDelayMs`, clients get at most one update.
 */
export class LiveUserCount {
  readonly instanceId: string;
  private othersTotal = 0;
  private lastBroadcast = -1;
  private lastPublished = -1;
  private pending: NodeJS.Timeout | null = null;
  private beat: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private stopped = false;

  constructor(
    private state: SharedState,
    private hub: RealtimeHub,
    private options: LiveUserCountOptions,
  ) {
    this.instanceId = options.instanceId ?? randomUUID();
  }

  /** Browsers online everywhere, including changes of this instance not yet published. */
  total() {
    return this.othersTotal + this.hub.browsers;
  }

  /**
   * The total told to one client (on connecting, or when it asks). When it is not what the others were last
   * told (this instance's own change, or another's not yet read), the next sync broadcasts whatever the total is
   * then, even the last broadcast's value: that client would otherwise keep the number it was told.
   */
  totalForOneClient() {
    const total = this.total();
    if (total !== this.lastBroadcast) {
      this.lastBroadcast = -1;
      this.schedule();
    }
    return total;
  }

  async start() {
    this.hub.onConnect(() => this.schedule());
    this.hub.onDisconnect(() => this.schedule());
    this.unsubscribe = await this.state.subscribe(CHANGED_CHANNEL, (from) => {
      if (from !== this.instanceId) this.schedule();
    });
    await this.sync();
    this.beat = setInterval(() => void this.sync(), this.options.heartbeatMs);
    this.beat.unref();
  }

  private schedule() {
    if (this.pending || this.stopped) return;
    this.pending = setTimeout(() => {
      this.pending = null;
      void this.sync();
    }, this.options.broadcastDelayMs);
    this.pending.unref();
  }

  /** Publishes this instance's count, re-reads everyone's, and tells local clients when the total moved. */
  private async sync() {
    if (this.stopped) return;
    const local = this.hub.browsers;
    try {
      await this.state.heartbeat(
        HEARTBEAT_GROUP,
        this.instanceId,
        String(local),
        this.options.heartbeatMs * 3,
      );
      if (local !== this.lastPublished) {
        this.lastPublished = local;
        await this.state.publish(CHANGED_CHANNEL, this.instanceId);
      }
      const beats = await this.state.readHeartbeats(HEARTBEAT_GROUP);
      let others = 0;
      for (const [id, value] of beats) if (id !== this.instanceId) others += Number(value) || 0;
      this.othersTotal = others;
    } catch (error) {
      // Shared state unreachable: keep serving the last known total rather than failing connections.
      this.options.log.warn({ err: error }, "live users: shared state unavailable, count may be stale");
    }
    if (this.stopped) return;
    const total = this.total();
    if (total !== this.lastBroadcast) {
      this.lastBroadcast = total;
      this.hub.broadcast({ type: "userCount", count: total });
    }
  }

  async stop() {
    this.stopped = true;
    if (this.pending) clearTimeout(this.pending);
    if (this.beat) clearInterval(this.beat);
    try {
      await this.unsubscribe?.();
      await this.state.removeHeartbeat(HEARTBEAT_GROUP, this.instanceId);
      await this.state.publish(CHANGED_CHANNEL, this.instanceId);
    } catch {
      // Shutting down: the heartbeat expires by itself.
    }
  }
}
