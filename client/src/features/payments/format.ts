/**
 * Token amounts arrive as decimal strings ("1234.5678") and are shown as they are: grouped thousands, at most
 * 6 decimals, never through a float (a float would turn 0.000123 into 1.23e-4 or lose the unique tag).
 */
export function formatTokenAmount(decimal: string, maxDecimals = 6): string {
  const negative = decimal.startsWith("-");
  const [whole = "0", fraction = ""] = decimal.replace(/^-/, "").split(".");
  const grouped = (whole.replace(/^0+(?=\d)/, "") || "0").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const trimmed = fraction.slice(0, maxDecimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${grouped}${trimmed ? `.${trimmed}` : ""}`;
}

/** The amount a payer types into a wallet: no grouping, all significant decimals. */
export function plainTokenAmount(decimal: string): string {
  const [whole = "0", fraction = ""] = decimal.split(".");
  const trimmed = fraction.replace(/0+$/, "");
  return trimmed ? `${whole}.${trimmed}` : whole;
}

/** "12.5" USD -> "$12.50" (a decimal string too). */
export function formatUsd(decimal: string): string {
  const [whole = "0", fraction = ""] = decimal.split(".");
  return `$${formatTokenAmount(whole, 0)}.${fraction.padEnd(2, "0").slice(0, 2)}`;
}

/** 0x12ab…89cd */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** "14:03" style countdown from milliseconds; hours when needed. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(h ? 2 : 1, "0");
  return `${h ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * "24 Nov 2026" in local time. Not `Intl`: a browser's first date formatting loads ICU's locale data, some 90 ms
 * of a phone's main thread, and lists format dates in their first render (the dashboard's payments).
 */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/** "24 Nov 2026, 09:05" in local time (24-hour clock); see `formatDate`. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  const time = [date.getHours(), date.getMinutes()].map((n) => String(n).padStart(2, "0")).join(":");
  return `${formatDate(iso)}, ${time}`;
}

export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return formatDate(iso);
}
