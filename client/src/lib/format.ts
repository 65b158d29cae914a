// Formatting without Intl on the content pages' first render: the first Intl call of a page loads the locale data,
// a single task of ~50 ms on a phone (total blocking time). The output is what en-US Intl gives (format.test.ts).

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** `2026-03-07` -> `March 7, 2026` (en-US, long), the calendar day as written. */
export function formatLongDate(isoDay: string): string {
  const [year, month, day] = isoDay.split("-").map(Number);
  return `${MONTHS[(month ?? 1) - 1]} ${day}, ${year}`;
}

/** An instant as `March 7, 2026, 14:05 UTC`. */
export function formatUtcDateTime(iso: string): string {
  const date = new Date(iso);
  const time = date.toISOString().slice(11, 16);
  return `${formatLongDate(date.toISOString().slice(0, 10))}, ${time} UTC`;
}

/** A non-negative integer written in digits, with en-US thousands separators: `1234567` -> `1,234,567`. */
export function groupThousands(digits: string): string {
  const trimmed = digits.replace(/^0+(?=\d)/, "");
  return trimmed.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
