import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.ts";
import { loadOrCreateSecret } from "../../lib/secrets.ts";

/** CHALLENGE_SECRET, else SESSION_SECRET (see config), else one generated once under DATA_DIR. */
export function resolveChallengeSecret(config: Config, log: FastifyBaseLogger): string {
  if (config.challengeSecret) return config.challengeSecret;
  const { secret, created, path } = loadOrCreateSecret(config.dataDir, "challenge-secret");
  if (created)
    log.warn({ path }, "generated a challenge secret; set CHALLENGE_SECRET when running several instances");
  return secret;
}
