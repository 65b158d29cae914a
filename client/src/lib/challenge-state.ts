import type { MathChallenge } from "@common/challenge.ts";

/**
 * The challenge being shown and the requests waiting for it (challenge-gate.ts sends them again once it is solved).
 * Apart from the gate so that the layout's overlay host, in the shell every page loads, does not carry the API
 * client's fetch code (issue 39).
 */
type State = { challenge: MathChallenge; waiters: (() => void)[] } | null;

let state: State = null;
let hosts = 0;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

export function subscribeChallenge(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentChallenge(): MathChallenge | null {
  return state?.challenge ?? null;
}

/** The overlay host calls this while mounted. */
export function registerChallengeHost() {
  hosts += 1;
  return () => {
    hosts -= 1;
  };
}

/** Resolves once the challenge (or the one already shown) is solved; rejects when `signal` aborts. */
export function waitForChallenge(challenge: MathChallenge, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    if (!state) state = { challenge, waiters: [] };
    const waiter = () => resolve();
    state.waiters.push(waiter);
    signal?.addEventListener("abort", () => {
      if (state) state.waiters = state.waiters.filter((w) => w !== waiter);
      reject(signal.reason);
    });
    notify();
  });
}

/** After a refused answer the server sends a fresh challenge: show it instead. */
export function replaceChallenge(challenge: MathChallenge) {
  if (!state) return;
  state = { ...state, challenge };
  notify();
}

export function challengeSolved() {
  const waiters = state?.waiters ?? [];
  state = null;
  notify();
  for (const waiter of waiters) waiter();
}

/** Whether an overlay host is mounted to show a challenge. */
export function hasChallengeHost(): boolean {
  return hosts > 0;
}
