import {
  CHALLENGE_RESPONSE_HEADER,
  CHALLENGE_TOKEN_HEADER,
  type MathChallenge,
  mathChallenge,
} from "@common/challenge.ts";

export const MESSAGES = {
  empty: "Please enter your answer",
  incorrect: "Incorrect answer. Please try again.",
  badReply: "Failed to validate your answer. Please try again.",
  network: "Connection error. Please try again.",
} as const;

export type VerifyOutcome =
  | { ok: true }
  | { ok: false; message: string; challenge: MathChallenge | null; wrongAnswer: boolean };

/** GET /api/verify-challenge with the token and the answer in headers (spec section 7). */
export async function verifyChallenge(token: string, answer: string): Promise<VerifyOutcome> {
  let response: Response;
  try {
    response = await fetch("/api/verify-challenge", {
      credentials: "include",
      headers: { [CHALLENGE_TOKEN_HEADER]: token, [CHALLENGE_RESPONSE_HEADER]: answer },
    });
  } catch {
    return { ok: false, message: MESSAGES.network, challenge: null, wrongAnswer: false };
  }
  let body: { error?: { message?: unknown }; challenge?: unknown } | undefined;
  try {
    body = await response.json();
  } catch {
    return { ok: false, message: MESSAGES.badReply, challenge: null, wrongAnswer: false };
  }
  if (response.ok) return { ok: true };
  const parsed = mathChallenge.safeParse(body?.challenge);
  const serverMessage = typeof body?.error?.message === "string" ? body.error.message : null;
  return {
    ok: false,
    message: serverMessage ?? MESSAGES.incorrect,
    challenge: parsed.success ? parsed.data : null,
    wrongAnswer: true,
  };
}
