import { describe, expect, it } from "vitest";
import { when } from "./claim-time";

describe("the next claim time, said once and locally", () => {
  it("names the reader's time zone", () => {
    expect(when("2026-11-27T11:55:00.000Z", "en-US")).toMatch(
      /Nov 27, 2026.*\b(UTC|GMT|[A-Z]{2,5}|GMT[+-]\d+)$/,
    );
    expect(when("2026-11-27T11:55:00.000Z", "ar-EG")).toMatch(/2026/);
  });
});
