import { createHash } from "node:crypto";
import type { SecondFactorMethod, TwoFactorRequired } from "@common/two-factor.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { createToken } from "../../lib/ids.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import { auditContext, recordAudit } from "../audit/record.ts";
import type { UserRow } from "../auth/repository.ts";
import { startSession } from "../auth/session.ts";
import * as repo from "./repository.ts";

/**
 * Every way of signing in ends here (decision 019): an account with a second factor gets a short-lived pending
 * sign-in instead of a session, whatever the first factor was (password, Sign-In with Ethereum, a social
 * account). Only a passkey sign-in, which is two factors by itself (device + user verification), starts the
 * session directly.
 */

export const PENDING_COOKIE = "cpxtb_2fa";
export const PENDING_TTL_MS = 5 * 60 * 1000;
/** Wrong second factors on one pending sign-in before it is dropped (the login throttle counts them too). */
export const PENDING_MAX_ATTEMPTS = 5;

export type FirstFactor = "password" | "siwe" | "social" | "passkey";

export type PendingSignIn = {
  userId: string;
  username: string;
  firstFactor: FirstFactor;
  expiresAt: number;
};

export type SignInGate = { db: Db; state: SharedState };

const pendingKey = (hash: string) => `2fa:pending:${hash}`;
export const pendingAttemptsKey = (hash: string) => `2fa:attempts:${hash}`;
const hashPendingToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function secondFactorsOf(db: Db, userId: string): Promise<SecondFactorMethod[]> {
  const [totp, keys, codesLeft] = await Promise.all([
    repo.findTotp(db, userId),
    repo.listPasskeys(db, userId),
    repo.countUnusedRecoveryCodes(db, userId),
  ]);
  const methods: SecondFactorMethod[] = [];
  if (totp?.confirmedAt) methods.push("totp");
  if (keys.length) methods.push("passkey");
  if (methods.length && codesLeft > 0) methods.push("recovery");
  return methods;
}

/** Starts the session and writes its audit row in one transaction. */
export async function startAuditedSession(
  gate: SignInGate,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  metadata: Record<string, unknown>,
) {
  const business = await repo.findOwnedBusiness(gate.db, user.id);
  await gate.db.transaction(async (tx) => {
    await startSession(tx, request, reply, user.id);
    await recordAudit(tx, auditContext(request, user.id), {
      action: "auth.sign_in",
      businessId: business?.id ?? null,
      metadata,
    });
  });
}

/** After a correct first factor: the session, or (2FA on) the pending sign-in the second step completes. */
export async function completeFirstFactor(
  gate: SignInGate,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  firstFactor: FirstFactor,
): Promise<UserRow | TwoFactorRequired> {
  const methods = firstFactor === "passkey" ? [] : await secondFactorsOf(gate.db, user.id);
  if (methods.length === 0) {
    await startAuditedSession(gate, request, reply, user, { method: firstFactor });
    return user;
  }
  const token = createToken();
  const expiresAt = Date.now() + PENDING_TTL_MS;
  const pending: PendingSignIn = { userId: user.id, username: user.username, firstFactor, expiresAt };
  await gate.state.set(pendingKey(hashPendingToken(token)), JSON.stringify(pending), PENDING_TTL_MS);
  reply.setCookie(PENDING_COOKIE, token, {
    path: "/api",
    httpOnly: true,
    sameSite: "lax",
    secure: reply.server.secureCookies,
    maxAge: PENDING_TTL_MS / 1000,
  });
  return { twoFactorRequired: true, methods, expiresAt: new Date(expiresAt).toISOString() };
}

export async function readPending(
  state: SharedState,
  request: FastifyRequest,
): Promise<{ hash: string; pending: PendingSignIn } | null> {
  const token = request.cookies[PENDING_COOKIE];
  if (!token || token.length > 100) return null;
  const hash = hashPendingToken(token);
  const raw = await state.get(pendingKey(hash));
  if (!raw) return null;
  const pending = JSON.parse(raw) as PendingSignIn;
  if (pending.expiresAt <= Date.now()) return null;
  return { hash, pending };
}

/**
 * Ends a pending sign-in. Its attempt count is left to expire with it (PENDING_TTL_MS): a guess already past
 * `readPending` when it ends must still find the count at its cap, not start a fresh one.
 */
export async function endPending(state: SharedState, reply: FastifyReply, hash: string) {
  await state.delete(pendingKey(hash));
  reply.clearCookie(PENDING_COOKIE, {
    path: "/api",
    httpOnly: true,
    sameSite: "lax",
    secure: reply.server.secureCookies,
  });
}
