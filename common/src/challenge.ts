import * as z from "zod";
import { apiErrorBody } from "./errors.ts";

export const CHALLENGE_LEVELS = [1, 2, 3, 4, 5] as const;
export type ChallengeLevel = (typeof CHALLENGE_LEVELS)[number];

/** Headers of GET /api/verify-challenge. */
export const CHALLENGE_TOKEN_HEADER = "x-math-challenge-token";
export const CHALLENGE_RESPONSE_HEADER = "x-math-challenge-response";

export const mathChallenge = z.object({
  token: z.string().min(1),
  /** Like "7 + 3" or "(12 × 4) - 9"; operators + - × ÷; every answer is an integer. */
  equation: z.string().min(1),
  level: z.union(CHALLENGE_LEVELS.map((l) => z.literal(l))),
});
export type MathChallenge = z.infer<typeof mathChallenge>;

/** A 429 (over a rate limit) or a refused answer: the error, plus the challenge to solve next. */
export const challengeErrorBody = apiErrorBody.extend({ challenge: mathChallenge });
export type ChallengeErrorBody = z.infer<typeof challengeErrorBody>;

export const verifyChallengeResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** The level the client is at after this answer (lower after a correct one). */
  level: z.number().int().min(1).max(5),
});
export type VerifyChallengeResponse = z.infer<typeof verifyChallengeResponse>;

export const verifyChallengeHeaders = z.object({
  [CHALLENGE_TOKEN_HEADER]: z.string().min(1, "The challenge token is missing.").max(2048),
  [CHALLENGE_RESPONSE_HEADER]: z
    .string()
    .max(32, "The answer is too long.")
    .refine((v) => v.trim() !== "", "Please enter your answer"),
});
