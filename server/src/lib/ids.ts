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

const TAIL_END = 1n << 80n;
/** The last id's time and tail per prefix: ids made in one millisecond keep the order they were made in. */
const lastOf = new Map<string, { ms: number; tail: bigint }>();

function encodeTail(tail: bigint): string {
  let out = "";
  let rest = tail;
  for (let i = 0; i < 16; i++) {
    out = CROCKFORD[Number(rest & 31n)] + out;
    rest >>= 5n;
  }
  return out;
}

/**
 * Prefixed, time-sortable ids (`usr_01j...`): a millisecond timestamp then 80 random bits. `at` is the time the
 * row records as its creation (a payment's id and `created_at` agree, so a time range is also an id range). Ids of
 * one prefix made in the same millisecond (a burst, or a clock held still in a test) step up from the previous one
 * by a random amount instead, as ULIDs do: the history's newest-first order is the order they were made in.
 */
export function createId(prefix: string, at: Date | number = Date.now()): string {
  const ms = typeof at === "number" ? at : at.getTime();
  const last = lastOf.get(prefix);
  let tail = BigInt(`0x${randomBytes(10).toString("hex")}`);
  if (last?.ms === ms) {
    const next = last.tail + 1n + BigInt(randomBytes(4).readUInt32BE());
    if (next < TAIL_END) tail = next;
  }
  lastOf.set(prefix, { ms, tail });
  return idTimePrefix(prefix, ms) + encodeTail(tail);
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
