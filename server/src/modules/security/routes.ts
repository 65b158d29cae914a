import {
  CHALLENGE_RESPONSE_HEADER,
  CHALLENGE_TOKEN_HEADER,
  challengeErrorBody,
  verifyChallengeHeaders,
  verifyChallengeResponse,
} from "@common/challenge.ts";
import { apiErrorBody } from "@common/errors.ts";
import { errorBody } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import type { ChallengeService, VerifyResult } from "./challenge-service.ts";
import { type ClientKeyResolver, windowKey } from "./rate-limit.ts";

const REFUSALS: Record<Exclude<VerifyResult, { ok: true }>["reason"], { code: string; message: string }> = {
  incorrect: { code: "CHALLENGE_INCORRECT", message: "Incorrect answer. Please try again." },
  "not-a-number": {
    code: "CHALLENGE_INCORRECT",
    message: "The answer must be a whole number. Please try again.",
  },
  expired: {
    code: "CHALLENGE_INVALID",
    message: "This security check has expired. Please solve the new one.",
  },
  used: {
    code: "CHALLENGE_INVALID",
    message: "This security check was already answered. Please solve the new one.",
  },
  invalid: {
    code: "CHALLENGE_INVALID",
    message: "This security check is not valid. Please solve the new one.",
  },
};

export async function securityRoutes(
  app: FastifyZod,
  opts: { challenges: ChallengeService; state: SharedState; clientKey: ClientKeyResolver },
) {
  app.get(
    "/api/verify-challenge",
    {
      config: { rateLimit: "verify" },
      schema: {
        headers: verifyChallengeHeaders,
        response: {
          200: verifyChallengeResponse,
          400: challengeErrorBody.or(apiErrorBody),
          429: apiErrorBody,
        },
      },
    },
    async (request, reply) => {
      const clientKey = await opts.clientKey(request, reply);
      const result = await opts.challenges.verify(
        clientKey,
        request.headers[CHALLENGE_TOKEN_HEADER],
        request.headers[CHALLENGE_RESPONSE_HEADER],
        // A sign-in challenge leaves a pass (ChallengeService) rather than resetting a window.
        async (group) => {
          if (group !== "login") await opts.state.delete(windowKey(group, clientKey));
        },
      );
      reply.header("Cache-Control", "no-store");
      if (result.ok) {
        return {
          success: true as const,
          message: "Verification successful. You may continue.",
          level: result.level,
        };
      }
      const refusal = REFUSALS[result.reason];
      return reply
        .status(400)
        .send({ ...errorBody(refusal.code, refusal.message), challenge: result.challenge });
    },
  );
}
