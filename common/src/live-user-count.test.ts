import { describe, expect, it } from "vitest";
import { liveUserCountOf } from "./live-user-count.ts";
import { liveUsersServerMessage } from "./live-users.ts";

const messages: unknown[] = [
  { type: "userCount", count: 3 },
  { type: "liveUserCount", count: 0 },
  { type: "connected", userCount: 12 },
  { type: "userCount", count: 7, extra: "ignored" },
  { type: "userCount", count: -1 },
  { type: "userCount", count: 1.5 },
  { type: "userCount", count: "3" },
  { type: "userCount" },
  { type: "connected", count: 4 },
  { type: "paymentUpdate", count: 4 },
  { count: 4 },
  null,
  "userCount",
  4,
  [],
];

describe("live user count", () => {
  it("reads the messages the schema accepts, with the same count, and nothing else", () => {
    for (const message of messages) {
      const parsed = liveUsersServerMessage.safeParse(message);
      const expected = !parsed.success
        ? null
        : parsed.data.type === "connected"
          ? parsed.data.userCount
          : parsed.data.count;
      expect(liveUserCountOf(message), JSON.stringify(message)).toBe(expected);
    }
  });
});
