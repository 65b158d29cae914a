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

/** The messages for values the database refused (SQLSTATE class 22, data exception), by SQLSTATE. */
const INPUT_MESSAGES: Record<string, string> = {
  "22021": "The request contains a character that cannot be stored (NUL).",
  "22P05": "The request contains a character that cannot be stored (NUL).",
  "22001": "A text in the request is longer than can be stored.",
  "22003": "A number in the request is out of range.",
  "22007": "A date or time in the request is out of range or not a real date.",
  "22008": "A date or time in the request is out of range or not a real date.",
  "22009": "A time zone offset in the request is not valid.",
  "22015": "A duration in the request is out of range.",
};

/**
 * A value the database refused to read or store (SQLSTATE class 22: a date out of its range, a number too large
 * for its column, text too long, a NUL character): the request's fault, wherever the value came from, so a 400.
 * Division by zero (22012) is not: it is a fault in our own SQL. Drizzle wraps the driver's error in `cause`;
 * `detail` is the driver's own message (the value, never the statement or its parameters).
 */
export function databaseInputError(
  error: unknown,
): { sqlstate: string; message: string; detail: string } | null {
  for (let e: unknown = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code !== "string" || !/^22[0-9A-Z]{3}$/.test(code) || code === "22012") continue;
    return {
      sqlstate: code,
      message: INPUT_MESSAGES[code] ?? "A value in the request is not valid.",
      detail: typeof message === "string" ? message.slice(0, 200) : "",
    };
  }
  return null;
}
