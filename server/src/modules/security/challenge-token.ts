import { createHmac, timingSafeEqual } from "node:crypto";
import type { RateLimitGroup } from "../../config.ts";

/** What a challenge unlocks: a rate-limit group's window, or one sign-in attempt on a guarded account. */
export type ChallengeGroup = RateLimitGroup | "login";

/**
 * A challenge token carries everything needed to check an answer, signed with HMAC-SHA256, so any
 * instance can verify it without shared storage (only used ids are stored, for single use). The answer is
 * not in it: only a MAC of the answer, which cannot be searched without the secret.
 */
export type ChallengePayload = {
  /** Random id: single use is enforced on it. */
  id: string;
  /** MAC of the client key the challenge was issued to (IP or account), so it cannot be handed on. */
  client: string;
  group: ChallengeGroup;
  level: number;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
  answerMac: string;
};

const VERSION = "v1";

const mac = (secret: string, purpose: string, value: string) =>
  createHmac("sha256", secret).update(`${purpose}\n${value}`).digest("base64url");

export const clientMac = (secret: string, clientKey: string) =>
  mac(secret, "challenge-client", clientKey).slice(0, 22);
export const answerMac = (secret: string, id: string, answer: number) =>
  mac(secret, "challenge-answer", `${id}:${answer}`).slice(0, 22);

export function signChallengeToken(secret: string, payload: ChallengePayload): string {
  const body = Buffer.from(
    JSON.stringify([
      payload.id,
      payload.client,
      payload.group,
      payload.level,
      payload.expiresAt,
      payload.answerMac,
    ]),
  ).toString("base64url");
  return `${VERSION}.${body}.${mac(secret, "challenge-token", body)}`;
}

/** The payload when the signature is ours and the token well formed; null otherwise (forged, truncated...). */
export function readChallengeToken(secret: string, token: string): ChallengePayload | null {
  const [version, body, signature, ...rest] = token.split(".");
  if (version !== VERSION || !body || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(secret, "challenge-token", body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const [id, client, group, level, expiresAt, answer] = JSON.parse(
      Buffer.from(body, "base64url").toString(),
    );
    if (typeof id !== "string" || typeof client !== "string" || typeof answer !== "string") return null;
    if (!Number.isInteger(level) || !Number.isInteger(expiresAt)) return null;
    return { id, client, group, level, expiresAt, answerMac: answer };
  } catch {
    return null;
  }
}

export function sameMac(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
