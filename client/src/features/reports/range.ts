/** Date ranges of a report, as calendar days in the merchant's time zone (the server reads them the same way). */

export const PRESETS = [
  { id: "today", label: "Today" },
  { id: "7d", label: "Last 7 days" },
  { id: "30d", label: "Last 30 days" },
  { id: "month", label: "This month" },
  { id: "last-month", label: "Last month" },
  { id: "custom", label: "Custom" },
] as const;
export type PresetId = (typeof PRESETS)[number]["id"];
export type DateRange = { from: string; to: string };

const DAY_MS = 86_400_000;

/** The browser's time zone (UTC when it does not say). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Every time zone the browser knows, UTC first. */
export function timeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: "timeZone") => string[] };
  const zones = intl.supportedValuesOf?.("timeZone") ?? [];
  return ["UTC", ...zones.filter((z) => z !== "UTC")];
}

/** Today's date `YYYY-MM-DD` on the wall clocks of `tz`. */
export function todayIn(tz: string, now = new Date()): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: tz,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** Calendar arithmetic on `YYYY-MM-DD` (no time zone involved). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function firstOfMonth(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

/** The range a preset stands for, in time zone `tz` ("custom" keeps `current`). */
export function presetRange(preset: PresetId, tz: string, current: DateRange, now = new Date()): DateRange {
  const today = todayIn(tz, now);
  switch (preset) {
    case "today":
      return { from: today, to: today };
    case "7d":
      return { from: addDays(today, -6), to: today };
    case "30d":
      return { from: addDays(today, -29), to: today };
    case "month":
      return { from: firstOfMonth(today), to: today };
    case "last-month": {
      const lastOfPrevious = addDays(firstOfMonth(today), -1);
      return { from: firstOfMonth(lastOfPrevious), to: lastOfPrevious };
    }
    case "custom":
      return current;
  }
}

/** "1 Mar 2026", from a calendar day (shown as that day, whatever the browser's zone). */
export function formatDay(
  date: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: "medium" },
): string {
  return new Intl.DateTimeFormat(undefined, { ...options, timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00Z`),
  );
}
