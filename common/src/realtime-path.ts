/** Path of the one WebSocket a page opens; every live feature (user count, payment updates) shares it.
 * Kept apart from the schemas so the always-loaded client shell can import it without zod. */
export const REALTIME_PATH = "/ws";
