import { randomBytes } from "node:crypto";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";
/** Ten base-32 characters hold milliseconds up to the year 37,648. */
const TIME_END_MS = 32 ** 10;

function encodeTime(ms: number): string {
  // Out of range, the text would no longer sort as the time does.
  if (!Number.isInteger(ms) || ms < 0 || ms >= TIME_END_MS) throw new RangeError(`no id time for ${ms}`);
  let out = "";
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/**
 * Prefixed, time-sortable ids (`usr_01j...`): a millisecond timestamp then 80 random bits. `at` is the time the
 * row records as its creation (a payment's id and `created_at` agree, so a time range is also an id range).
 */
export function createId(prefix: string, at: Date | number = Date.now()): string {
  const random = randomBytes(10);
  let tail = "";
  for (let i = 0; i < 16; i++) {
    // 16 base-32 characters from 80 bits: take 5 bits at a time.
    const bit = i * 5;
    const byte = bit >> 3;
    const value = (((random[byte] ?? 0) << 8) | (random[byte + 1] ?? 0)) >> (11 - (bit & 7));
    tail += CROCKFORD[value & 31];
  }
  return idTimePrefix(prefix, at) + tail;
}

/**
 * The start of every id `createId(prefix, at)` makes. The fixed-width time sorts as text as it does as a number
 * (in any collation that puts digits before letters, as the database's does: a server test checks), so
 * `id < idTimePrefix(p, t)` holds exactly for the ids made before `t`, and `id >= ...` for the others.
 */
export function idTimePrefix(prefix: string, at: Date | number): string {
  return `${prefix}_${encodeTime(typeof at === "number" ? at : at.getTime())}`;
}

/** An unguessable URL-safe token of `bytes` random bytes (32 bytes = 256 bits). */
export function createToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * A payment reference: 128 random bits as base64url that never starts with "-" or "_" (a leading "-" is read as a
 * formula by spreadsheets, so the report's CSV would have to alter it, and looks like an option on a command line).
 */
export function createReference(): string {
  for (;;) {
    const token = createToken(16);
    if (/^[A-Za-z0-9]/.test(token)) return token;
  }
}
