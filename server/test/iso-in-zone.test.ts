import { describe, expect, it } from "vitest";
import { isoInZone } from "../src/modules/reports/service.ts";

/** The instant as Intl shows the zone's wall clock, read for that instant alone (what isoInZone must equal). */
const formats = new Map<string, Intl.DateTimeFormat>();
function reference(ms: number, tz: string): string {
  const parts: Record<string, string> = {};
  const format =
    formats.get(tz) ??
    new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
  formats.set(tz, format);
  for (const part of format.formatToParts(new Date(ms))) parts[part.type] = part.value;
  const wall = Date.UTC(
    +parts.year!,
    +parts.month! - 1,
    +parts.day!,
    +parts.hour!,
    +parts.minute!,
    +parts.second!,
  );
  const offsetMin = Math.round((wall - (ms - (ms % 1000))) / 60_000);
  const abs = Math.abs(offsetMin);
  const offset = `${offsetMin < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  const msText = String(new Date(ms).getUTCMilliseconds()).padStart(3, "0");
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${msText}${offset}`;
}

describe("isoInZone (the CSV's times in the merchant's zone)", () => {
  it("shows the wall clock and offset", () => {
    expect(isoInZone("2026-03-29T01:30:00.000Z", "Europe/Berlin")).toBe("2026-03-29T03:30:00.000+02:00");
    expect(isoInZone("2026-03-29T00:59:59.999Z", "Europe/Berlin")).toBe("2026-03-29T01:59:59.999+01:00");
    expect(isoInZone(new Date("2026-07-01T12:00:00.123Z"), "Asia/Kathmandu")).toBe(
      "2026-07-01T17:45:00.123+05:45",
    );
    expect(isoInZone(null, "UTC")).toBeNull();
  });

  // The offset is kept per UTC hour: every minute around each change of offset in zones that change on the hour,
  // the half hour (Lord Howe: 30 minutes of summer time) and the quarter hour (Chatham), in both directions.
  it.each([
    "Europe/Berlin",
    "America/New_York",
    "America/St_Johns",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "Asia/Kathmandu",
    "America/Santiago",
    "UTC",
  ])("equals Intl's reading of each instant in %s through a year's changes", (tz) => {
    const start = Date.UTC(2026, 0, 1);
    const end = Date.UTC(2027, 0, 1);
    for (let ms = start; ms < end; ms += 6 * 3_600_000 + 7 * 60_000 + 13_001) {
      expect(isoInZone(new Date(ms), tz)).toBe(reference(ms, tz));
    }
    // Minute by minute across every change of offset of that year.
    let previous = reference(start, tz).slice(-6);
    for (let day = start; day < end; day += 86_400_000) {
      const offset = reference(day + 86_400_000, tz).slice(-6);
      if (offset !== previous) {
        for (let ms = day; ms <= day + 86_400_000; ms += 60_000 + 7) {
          expect(isoInZone(new Date(ms), tz)).toBe(reference(ms, tz));
        }
      }
      previous = offset;
    }
  });
});
