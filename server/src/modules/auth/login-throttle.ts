import type { SharedState } from "../../lib/shared-state/shared-state.ts";

/**
 * Limits sign-in attempts per account and per client address in a sliding window, counted in the shared
 * state so every instance agrees. An account's count is cleared by a successful sign-in, so in effect it
 * counts failures; an address gets a larger allowance because many people can share one (offices, carriers).
 */
export type LoginThrottle = {
  /** Records an attempt; the seconds to wait when over a limit (nothing recorded then), or 0. */
  admit(subject: LoginSubject): Promise<number>;
  /** A successful sign-in clears the account's count (not the address's). */
  succeeded(account: string): Promise<void>;
};

export type LoginSubject = { account: string; ip: string };

export type LoginThrottleOptions = { perAccount: number; perIp: number; windowMs: number };

const accountKey = (account: string) => `login:account:${account.trim().toLowerCase()}`;

export function createLoginThrottle(state: SharedState, options: LoginThrottleOptions): LoginThrottle {
  return {
    async admit(subject) {
      const byIp = await state.hitWindow(`login:ip:${subject.ip}`, options.perIp, options.windowMs);
      if (!byIp.allowed) return Math.ceil(byIp.retryAfterMs / 1000);
      const byAccount = await state.hitWindow(
        accountKey(subject.account),
        options.perAccount,
        options.windowMs,
      );
      return byAccount.allowed ? 0 : Math.ceil(byAccount.retryAfterMs / 1000);
    },
    async succeeded(account) {
      await state.delete(accountKey(account));
    },
  };
}
