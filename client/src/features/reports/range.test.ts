import { describe, expect, it } from "vitest";
import { addDays, foldQuietBuckets, formatDaySpan, presetRange, todayIn } from "./range";

const current = { from: "2026-01-01", to: "2026-01-02" };

describe("report ranges", () => {
  it("takes today from the chosen time zone, not the browser's", () => {
    const now = new Date("2026-03-01T23:30:00Z");
    expect(todayIn("UTC", now)).toBe("2026-03-01");
    expect(todayIn("Europe/Berlin", now)).toBe("2026-03-02");
    expect(todayIn("America/Los_Angeles", now)).toBe("2026-03-01");
  });

  it("computes the presets as calendar days in that zone", () => {
    const now = new Date("2026-03-01T23:30:00Z"); // 2 March in Berlin
    const tz = "Europe/Berlin";
    expect(presetRange("today", tz, current, now)).toEqual({ from: "2026-03-02", to: "2026-03-02" });
    expect(presetRange("7d", tz, current, now)).toEqual({ from: "2026-02-24", to: "2026-03-02" });
    expect(presetRange("30d", tz, current, now)).toEqual({ from: "2026-02-01", to: "2026-03-02" });
    expect(presetRange("month", tz, current, now)).toEqual({ from: "2026-03-01", to: "2026-03-02" });
    expect(presetRange("last-month", tz, current, now)).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(presetRange("last-month", "UTC", current, new Date("2026-01-15T12:00:00Z"))).toEqual({
      from: "2025-12-01",
      to: "2025-12-31",
    });
    expect(presetRange("custom", tz, current, now)).toBe(current);
  });

  it("adds days across month ends and daylight-saving changes", () => {
    expect(addDays("2026-03-28", 2)).toBe("2026-03-30");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
  });
});

describe("folded quiet days", () => {
  const b = (start: string, count: number) => ({ start, count });
  it("folds each run of days without payments into one row", () => {
    const rows = foldQuietBuckets([
      b("2026-11-01", 0),
      b("2026-11-02", 0),
      b("2026-11-03", 0),
      b("2026-11-04", 2),
      b("2026-11-05", 0),
      b("2026-11-06", 1),
    ]);
    expect(rows).toEqual([
      { kind: "quiet", from: "2026-11-01", to: "2026-11-03", buckets: 3 },
      { kind: "bucket", bucket: b("2026-11-04", 2) },
      { kind: "quiet", from: "2026-11-05", to: "2026-11-05", buckets: 1 },
      { kind: "bucket", bucket: b("2026-11-06", 1) },
    ]);
    expect(foldQuietBuckets([])).toEqual([]);
  });

  it("names the run as a short span of days", () => {
    expect(formatDaySpan("2026-11-01", "2026-11-14", "en-GB")).toMatch(/^1 ?– ?14 Nov$/);
    expect(formatDaySpan("2026-11-03", "2026-11-03", "en-GB")).toBe("3 Nov");
    expect(formatDaySpan("2026-10-28", "2026-11-03", "en-GB")).toBe("28 Oct – 3 Nov");
  });

  it("writes the days in latin digits, Arabic included", () => {
    expect(formatDaySpan("2026-11-03", "2026-11-14", "ar-EG")).toMatch(/\b3\b.*\b14\b/);
  });
});
