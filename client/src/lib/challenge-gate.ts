import type { MathChallenge } from "@common/challenge.ts";
import { dropEarlyResponses, takeEarlyResponse } from "./early-requests";

/**
 * Between the API client and the Security Verification overlay: a refused request (429 with a challenge)
 * waits here until the overlay reports the challenge solved, then is sent again. Several requests refused
 * at once share one overlay. Without a mounted overlay nothing waits: the 429 is returned as is.
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

/** The challenge in a 429 body, when there is one. */
export async function readChallenge(response: Response): Promise<MathChallenge | null> {
  if (response.status !== 429) return null;
  try {
    const body = (await response.clone().json()) as { challenge?: unknown };
    // The schema (and zod) load only when a request is refused: the shell that every page loads stays small.
    const { mathChallenge } = await import("@common/challenge.ts");
    const parsed = mathChallenge.safeParse(body?.challenge);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
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

/**
 * fetch that, on a 429 with a challenge, waits for it to be solved and sends the request again. A GET that the
 * page's inline script already started takes that answer (`takeEarlyResponse`); any other method drops them.
 */
export async function fetchWithChallenge(input: string, init: RequestInit = {}): Promise<Response> {
  const isGet = (init.method ?? "GET").toUpperCase() === "GET";
  if (!isGet) dropEarlyResponses();
  let early = isGet ? takeEarlyResponse(input) : undefined;
  for (;;) {
    const response = await (early ?? fetch(input, init));
    early = undefined;
    if (response.status !== 429 || hosts === 0) return response;
    const challenge = await readChallenge(response);
    if (!challenge) return response;
    await waitForChallenge(challenge, init.signal);
  }
}
