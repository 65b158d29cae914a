import type { MathChallenge } from "@common/challenge.ts";
import { hasChallengeHost, waitForChallenge } from "./challenge-state";
import { dropEarlyResponses, takeEarlyResponse } from "./early-requests";

/**
 * Between the API client and the Security Verification overlay: a refused request (429 with a challenge)
 * waits until the overlay reports the challenge solved (challenge-state.ts), then is sent again. Several requests
 * refused at once share one overlay. Without a mounted overlay nothing waits: the 429 is returned as is.
 */

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
    if (response.status !== 429 || !hasChallengeHost()) return response;
    const challenge = await readChallenge(response);
    if (!challenge) return response;
    await waitForChallenge(challenge, init.signal);
  }
}
