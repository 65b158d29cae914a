/**
 * The count a server's live-users message carries, or null when it is not one: `userCount` (ours),
 * `liveUserCount` (the earlier product's) or `connected` (the first message of a connection). The schemas of
 * live-users.ts describe the same messages; this reads them without zod, because the widget that shows the count
 * sits in the header of every page and would otherwise load zod for one number (a test keeps the two in step).
 */
export function liveUserCountOf(message: unknown): number | null {
  if (typeof message !== "object" || message === null) return null;
  const { type, count, userCount } = message as Record<string, unknown>;
  const value =
    type === "connected" ? userCount : type === "userCount" || type === "liveUserCount" ? count : null;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
}
