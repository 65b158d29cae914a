import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import type { RealtimeHub } from "./hub.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Counters, rate windows, heartbeats and pub/sub shared by every instance (Redis or in-process). */
    sharedState: SharedState;
    /** The /ws connections of this instance and their message router. */
    realtime: RealtimeHub;
  }
}
