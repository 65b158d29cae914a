import * as z from "zod";

export { REALTIME_PATH } from "./realtime-path.ts";

/** Every message on /ws, both directions, is a JSON object with a string `type`; the rest depends on it. */
export const realtimeEnvelope = z.looseObject({ type: z.string().min(1).max(64) });
export type RealtimeEnvelope = z.infer<typeof realtimeEnvelope>;
