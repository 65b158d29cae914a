import { randomBytes } from "node:crypto";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

function encodeTime(ms: number): string {
  let out = "";
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** Prefixed, time-sortable ids (`usr_01j...`): a millisecond timestamp then 80 random bits. */
export function createId(prefix: string): string {
  const random = randomBytes(10);
  let tail = "";
  for (let i = 0; i < 16; i++) {
    // 16 base-32 characters from 80 bits: take 5 bits at a time.
    const bit = i * 5;
    const byte = bit >> 3;
    const value = (((random[byte] ?? 0) << 8) | (random[byte + 1] ?? 0)) >> (11 - (bit & 7));
    tail += CROCKFORD[value & 31];
  }
  return `${prefix}_${encodeTime(Date.now())}${tail}`;
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
