/**
 * Errors that mean the database cannot be reached right now (refused, dropped, restarting, out of connections),
 * as opposed to a query that failed: answered 503 with Retry-After, since the same request will work once the
 * database is back. Drizzle wraps the driver's error in `cause`, so the whole chain is looked at.
 */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** SQLSTATE: 08xxx connection exceptions; shutdown and start-up; the database gone; no connection slot left. */
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "3D000", "53300"]);

const MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "not currently accepting connections",
  "Client has encountered a connection error",
  "Connection is closed",
];

/** Seconds a client is told to wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string") {
      if (NETWORK_CODES.has(code) || SQLSTATES.has(code) || code.startsWith("08")) return true;
    }
    if (typeof message === "string" && MESSAGES.some((m) => message.includes(m))) return true;
    // Several attempts at once (Happy Eyeballs) fail as one AggregateError.
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}
