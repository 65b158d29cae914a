import { describe, expect, it } from "vitest";
import { when, withoutUtcTime } from "./claim-time";

describe("the next claim time, said once and locally", () => {
  it("drops the server's UTC sentence and keeps the reason", () => {
    expect(
      withoutUtcTime("Already claimed in the last 24 hours. You can claim again at 2026-11-27 11:55 UTC."),
    ).toBe("Already claimed in the last 24 hours.");
    expect(
      withoutUtcTime("Today's claim budget is used up. You can claim again at 2026-11-28 00:00 UTC."),
    ).toBe("Today's claim budget is used up.");
    expect(withoutUtcTime("Link this wallet first.")).toBe("Link this wallet first.");
  });

  it("names the reader's time zone", () => {
    expect(when("2026-11-27T11:55:00.000Z", "en-US")).toMatch(
      /Nov 27, 2026.*\b(UTC|GMT|[A-Z]{2,5}|GMT[+-]\d+)$/,
    );
    expect(when("2026-11-27T11:55:00.000Z", "ar-EG")).toMatch(/2026/);
  });
});
