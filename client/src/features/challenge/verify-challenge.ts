import {
  CHALLENGE_RESPONSE_HEADER,
  CHALLENGE_TOKEN_HEADER,
  type MathChallenge,
  mathChallenge,
} from "@common/challenge.ts";

/**
 * Why an answer was not accepted. The overlay says each in its reader's language (challenge.json); a refusal whose
 * code it does not know (`server`) shows the server's own sentence.
 */
export type RefusalReason = "incorrect" | "invalid" | "rateLimited" | "badReply" | "network" | "server";

export type VerifyOutcome =
  | { ok: true }
  | {
      ok: false;
      reason: RefusalReason;
      /** The server's English sentence, shown only for a refusal the overlay has no words for. */
      serverMessage: string | null;
      challenge: MathChallenge | null;
      wrongAnswer: boolean;
    };

const BY_CODE: Record<string, RefusalReason> = {
  CHALLENGE_INCORRECT: "incorrect",
  CHALLENGE_INVALID: "invalid",
  RATE_LIMITED: "rateLimited",
};

/** GET /api/verify-challenge with the token and the answer in headers (spec section 7). */
export async function verifyChallenge(token: string, answer: string): Promise<VerifyOutcome> {
  let response: Response;
  try {
    response = await fetch("/api/verify-challenge", {
      credentials: "include",
      headers: { [CHALLENGE_TOKEN_HEADER]: token, [CHALLENGE_RESPONSE_HEADER]: answer },
    });
  } catch {
    return { ok: false, reason: "network", serverMessage: null, challenge: null, wrongAnswer: false };
  }
  let body: { error?: { code?: unknown; message?: unknown }; challenge?: unknown } | undefined;
  try {
    body = await response.json();
  } catch {
    return { ok: false, reason: "badReply", serverMessage: null, challenge: null, wrongAnswer: false };
  }
  if (response.ok) return { ok: true };
  const parsed = mathChallenge.safeParse(body?.challenge);
  const code = typeof body?.error?.code === "string" ? body.error.code : "";
  const serverMessage = typeof body?.error?.message === "string" ? body.error.message : null;
  const reason =
    BY_CODE[code] ?? (response.status === 429 ? "rateLimited" : serverMessage ? "server" : "incorrect");
  return {
    ok: false,
    reason,
    serverMessage,
    challenge: parsed.success ? parsed.data : null,
    wrongAnswer: true,
  };
}
