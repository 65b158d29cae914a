import type { SharedState } from "../../lib/shared-state/shared-state.ts";

/**
 * Guards sign-in against password guessing without letting anyone lock an account out (issue 12, item 10).
 *
 * - Per client address: a sliding window of attempts (many people can share one address, so it is large); over
 *   it, that address waits. Nobody else is affected.
 * - Per account: failed sign-ins are counted (a success clears them). Up to `perAccount` failures nothing
 *   changes. Past it, every attempt on the account must come with a solved security challenge (one solution,
 *   one attempt), and a client that keeps failing on it is slowed down: it must wait 1 s, 2 s, 4 s … (at most
 *   `maxDelayMs`) after each of its failures. The rightful owner, from another address, only solves a challenge.
 *
 * All counts live in the shared state, so every instance agrees.
 */
export type LoginThrottle = {
  /** Records an attempt and says what it needs before the password is checked. */
  admit(subject: LoginSubject): Promise<LoginAdmission>;
  /** A wrong password (or unknown account). */
  failed(subject: LoginSubject): Promise<void>;
  /** A successful sign-in (or password reset) clears the account's failures and this client's slowdown. */
  succeeded(subject: LoginSubject): Promise<void>;
};

export type LoginSubject = { account: string; ip: string };

export type LoginAdmission =
  | { kind: "ok" }
  /** Wait this many seconds (address over its window, or slowed down after failures). */
  | { kind: "wait"; seconds: number }
  /** The account is past its failure threshold: a solved challenge is required for this attempt. */
  | { kind: "challenge" };

export type LoginThrottleOptions = {
  /** Failed sign-ins of an account before the challenge is required. */
  perAccount: number;
  perIp: number;
  windowMs: number;
  /** First wait after a client's failure on a guarded account (doubling with each further one); 1 s. */
  firstDelayMs?: number;
  /** Longest wait between one client's failed attempts on a guarded account; 60 s. */
  maxDelayMs?: number;
};

const normalise = (account: string) => account.trim().toLowerCase();
const failuresKey = (account: string) => `login:failures:${normalise(account)}`;
const slowKey = (s: LoginSubject) => `login:slow:${normalise(s.account)}:${s.ip}`;
const slowCountKey = (s: LoginSubject) => `login:slow-count:${normalise(s.account)}:${s.ip}`;

export function createLoginThrottle(
  state: SharedState,
  options: LoginThrottleOptions,
  now: () => number = Date.now,
): LoginThrottle {
  const firstDelayMs = options.firstDelayMs ?? 1000;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  return {
    async admit(subject) {
      const byIp = await state.hitWindow(`login:ip:${subject.ip}`, options.perIp, options.windowMs);
      if (!byIp.allowed) return { kind: "wait", seconds: Math.ceil(byIp.retryAfterMs / 1000) };
      const failures = Number((await state.get(failuresKey(subject.account))) ?? 0);
      if (failures < options.perAccount) return { kind: "ok" };
      const until = Number((await state.get(slowKey(subject))) ?? 0);
      if (until > now()) return { kind: "wait", seconds: Math.ceil((until - now()) / 1000) };
      return { kind: "challenge" };
    },
    async failed(subject) {
      const failures = await state.increment(failuresKey(subject.account), options.windowMs);
      if (failures <= options.perAccount) return;
      const mine = await state.increment(slowCountKey(subject), options.windowMs);
      const delay = Math.min(firstDelayMs * 2 ** (mine - 1), maxDelayMs);
      await state.set(slowKey(subject), String(now() + delay), delay);
    },
    async succeeded(subject) {
      await Promise.all([
        state.delete(failuresKey(subject.account)),
        state.delete(slowKey(subject)),
        state.delete(slowCountKey(subject)),
      ]);
    },
  };
}
