import * as z from "zod";

const count = z.number().int().nonnegative();

/** Client -> server: ask for the current count (on open and every 30 s). */
export const getUserCountMessage = z.object({ type: z.literal("getUserCount") });

/** Server -> client: the number of open connections across all server instances. */
export const userCountMessage = z.object({ type: z.literal("userCount"), count });
/** Accepted from the server for compatibility with the earlier product; ours sends `userCount`. */
export const liveUserCountMessage = z.object({ type: z.literal("liveUserCount"), count });
/** First message on every connection. */
export const connectedMessage = z.object({ type: z.literal("connected"), userCount: count });

export const liveUsersServerMessage = z.discriminatedUnion("type", [
  userCountMessage,
  liveUserCountMessage,
  connectedMessage,
]);
export type LiveUsersServerMessage = z.infer<typeof liveUsersServerMessage>;
// The browser reads these messages with live-user-count.ts (no zod in every page's header).
