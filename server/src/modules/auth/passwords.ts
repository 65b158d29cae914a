import { createRequire } from "node:module";
import { PASSWORD_MIN_LENGTH } from "@common/auth.ts";
import { hash, verify } from "@node-rs/argon2";

// argon2id with OWASP's recommended minimum (19 MiB, 2 passes): ~20 ms here, far too slow to brute force.
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 } as const;

let commonPasswords: Set<string> | undefined;
function isCommonPassword(password: string): boolean {
  if (!commonPasswords) {
    // zxcvbn's list of the ~50,000 most used passwords; shorter ones are refused by length anyway.
    const list: string[] = createRequire(import.meta.url)("@zxcvbn-ts/language-common/src/passwords.json");
    commonPasswords = new Set(list.filter((p) => p.length >= PASSWORD_MIN_LENGTH));
  }
  return commonPasswords.has(password.toLowerCase());
}

/** Why a new password is refused, or null when it is acceptable. Length is checked by the request schema. */
export function passwordProblem(password: string, username?: string): string | null {
  const lower = password.toLowerCase();
  if (isCommonPassword(password)) return "This password is too common. Choose one that is harder to guess.";
  if (/^(.)\1+$/.test(password)) return "This password repeats a single character. Choose a stronger one.";
  if (username && lower.includes(username.toLowerCase()) && username.length >= 3) {
    return "The password must not contain the username.";
  }
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

// A real hash of a random password: verifying against it costs what a real check costs, so a sign-in for an
// unknown account takes as long as one with a wrong password (no user enumeration by timing).
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword(crypto.randomUUID());
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
