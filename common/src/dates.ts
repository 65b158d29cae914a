import * as z from "zod";

/**
 * Every date and time the API takes lies in these years: far from where JavaScript (±275,760), PostgreSQL
 * (4713 BC..294,276 AD, and 5,874,897 for dates) and ISO strings (four-digit years) stop agreeing, and around
 * anything a payment, a report or an audit entry can be about. Outside it is a 400 that says the range.
 */
export const MIN_YEAR = 2000;
export const MAX_YEAR = 2999;
export const FIRST_DAY = `${MIN_YEAR}-01-01`;
export const LAST_DAY = `${MAX_YEAR}-12-31`;
const FIRST_MS = Date.UTC(MIN_YEAR, 0, 1);
const END_MS = Date.UTC(MAX_YEAR + 1, 0, 1);

/** Whether `YYYY-MM-DD` names a day that exists (not 2023-02-29, not 2024-04-31). */
export function isRealDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A calendar day `YYYY-MM-DD` that exists, from 2000-01-01 to 2999-12-31. */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-01-31")
  .refine(isRealDate, "is not a real calendar date")
  .refine(
    (value) => value >= FIRST_DAY && value <= LAST_DAY,
    `must be a date from ${FIRST_DAY} to ${LAST_DAY}`,
  );

/**
 * An instant: ISO 8601 with `Z` or an offset (`2026-01-31T09:30:00Z`, `…+02:00`), a real date and time of day
 * (no 24:00, no leap second), from 2000-01-01T00:00:00Z up to the end of 2999 (UTC).
 */
export const instant = z.iso.datetime({ offset: true }).refine((value) => {
  const ms = Date.parse(value);
  return ms >= FIRST_MS && ms < END_MS;
}, `must be a time from ${FIRST_DAY}T00:00:00Z to ${LAST_DAY}T23:59:59Z`);
