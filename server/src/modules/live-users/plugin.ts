import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import type { RealtimeHub } from "../realtime/hub.ts";
import { LiveUserCount } from "./live-user-count.ts";
import { registerLiveUserMessages } from "./routes.ts";

export async function liveUsersPlugin(
  app: FastifyInstance,
  { config, hub, sharedState }: { config: Config; hub: RealtimeHub; sharedState: SharedState },
) {
  const counter = new LiveUserCount(sharedState, hub, {
    heartbeatMs: config.realtime.heartbeatMs,
    broadcastDelayMs: config.realtime.broadcastDelayMs,
    log: app.log,
  });
  registerLiveUserMessages(hub, counter);
  await counter.start();
  app.addHook("preClose", async () => {
    await counter.stop();
  });
}
