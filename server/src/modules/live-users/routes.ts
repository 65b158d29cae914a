import { getUserCountMessage } from "@common/live-users.ts";
import type { RealtimeHub } from "../realtime/hub.ts";
import type { LiveUserCount } from "./live-user-count.ts";

/** The live-users messages on the shared socket: `connected` on open, `userCount` on request. */
export function registerLiveUserMessages(hub: RealtimeHub, counter: LiveUserCount) {
  hub.onConnect((connection) =>
    connection.send({ type: "connected", userCount: counter.totalForOneClient() }),
  );
  hub.handle("getUserCount", getUserCountMessage, (_message, connection) => {
    connection.send({ type: "userCount", count: counter.totalForOneClient() });
  });
}
