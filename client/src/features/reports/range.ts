/** Date ranges of a report, as calendar days in the merchant's time zone (the server reads them the same way). */

/** The ranges offered as buttons, in their order (their names are in the "reports" catalog). */
export const PRESETS = ["today", "7d", "30d", "month", "last-month", "custom"] as const;
export type PresetId = (typeof PRESETS)[number];
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

/**
 * "1 Mar 2026", from a calendar day (shown as that day, whatever the browser's zone), in `locale` (an `Intl` tag:
 * the page's and the PDF's language, `intlTag`; the browser's own when not given).
 */
export function formatDay(
  date: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: "medium" },
  locale?: string,
): string {
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00Z`),
  );
}

/** A row of a per-day (or per-week) table: a bucket with payments, or a run of buckets without any, folded. */
export type FoldedRow<B> =
  | { kind: "bucket"; bucket: B }
  | { kind: "quiet"; from: string; to: string; buckets: number };

/**
 * Buckets in order, each run of buckets without a paid payment folded into one row ("No payments 1–14 Nov"), so a
 * quiet month is one line in a table, not thirty lines of zeros.
 */
export function foldQuietBuckets<B extends { start: string; count: number }>(
  buckets: readonly B[],
): FoldedRow<B>[] {
  const rows: FoldedRow<B>[] = [];
  for (const bucket of buckets) {
    const last = rows.at(-1);
    if (bucket.count > 0) rows.push({ kind: "bucket", bucket });
    else if (last?.kind === "quiet")
      rows[rows.length - 1] = { ...last, to: bucket.start, buckets: last.buckets + 1 };
    else rows.push({ kind: "quiet", from: bucket.start, to: bucket.start, buckets: 1 });
  }
  return rows;
}

/** "1–14 Nov", "28 Oct – 3 Nov 2026": a span of calendar days, as short as the locale writes it. */
export function formatDaySpan(from: string, to: string, locale?: string): string {
  const format = new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
    numberingSystem: "latn", // as every amount and date of the app, Arabic included
  });
  const a = new Date(`${from}T00:00:00Z`);
  if (from === to) return format.format(a);
  // Plain spaces: ICU puts thin ones around the dash, which a PDF's standard fonts cannot draw.
  return format.formatRange(a, new Date(`${to}T00:00:00Z`)).replace(/[\u2009\u202f]/g, " ");
}
