import { createHash, randomBytes } from "node:crypto";
import { RECENT_SIGN_IN_MS, RECOVERY_CODE_COUNT, type TwoFactorStatus } from "@common/two-factor.ts";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import { type AuditContext, auditContext, recordAudit } from "../audit/record.ts";
import type { LoginThrottle } from "../auth/login-throttle.ts";
import * as accounts from "../auth/repository.ts";
import { admitSignIn, type SignInChallenge } from "../auth/service.ts";
import type { Auth } from "../auth/session.ts";
import type { ChallengeService } from "../security/challenge-service.ts";
import type { ClientKeyResolver } from "../security/rate-limit.ts";
import * as repo from "./repository.ts";
import type { SecretBox } from "./secret-box.ts";
import {
  completeFirstFactor,
  endPending,
  PENDING_MAX_ATTEMPTS,
  PENDING_TTL_MS,
  pendingAttemptsKey,
  readPending,
  startAuditedSession,
} from "./sign-in.ts";
import { generateTotpSecret, matchTotp, otpauthUri } from "./totp.ts";
import { challengeOf, relyingParty } from "./webauthn.ts";

export type TwoFactorDeps = {
  db: Db;
  state: SharedState;
  config: Config;
  throttle: LoginThrottle;
  challenges: ChallengeService;
  clientKey: ClientKeyResolver;
  box: SecretBox;
};

const WEBAUTHN_TTL_MS = 5 * 60 * 1000;
const registrationKey = (userId: string) => `webauthn:reg:${userId}`;
const assertionKey = (challenge: string) => `webauthn:auth:${challenge}`;

// ---- Recovery codes ----

const CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** `xxxxx-xxxxx`: 10 characters of a 31-letter alphabet (~49.5 bits), unambiguous to read and type. */
function generateRecoveryCode(): string {
  const bytes = randomBytes(10);
  let out = "";
  for (let i = 0; i < 10; i++) {
    if (i === 5) out += "-";
    out += CODE_ALPHABET[bytes[i]! % CODE_ALPHABET.length];
  }
  return out;
}

const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");
const hashRecoveryCode = (code: string) =>
  createHash("sha256")
    .update(`recovery:${normaliseRecoveryCode(code)}`)
    .digest("hex");

async function issueRecoveryCodes(db: DbOrTx, userId: string) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);
  await repo.replaceRecoveryCodes(
    db,
    userId,
    codes.map((code) => ({ id: createId("rec"), codeHash: hashRecoveryCode(code) })),
  );
  return codes;
}

// ---- Checking a code (second step, and re-authentication) ----

/** Spends a correct TOTP code (its time step) or recovery code; false when neither matches. */
async function spendCode(
  deps: TwoFactorDeps,
  userId: string,
  code: string,
): Promise<"totp" | "recovery" | null> {
  const digits = code.replace(/\s/g, "");
  if (/^\d{6}$/.test(digits)) {
    const totp = await repo.findTotp(deps.db, userId);
    if (!totp?.confirmedAt) return null;
    const step = matchTotp(deps.box.open(totp.secretEncrypted), digits, Date.now(), totp.lastUsedStep);
    if (step === null) return null;
    return (await repo.spendTotpStep(deps.db, userId, step, false)) ? "totp" : null;
  }
  if (normaliseRecoveryCode(code).length !== 10) return null;
  return (await repo.spendRecoveryCode(deps.db, userId, hashRecoveryCode(code))) ? "recovery" : null;
}

async function auditFailure(deps: TwoFactorDeps, context: AuditContext, userId: string, reason: string) {
  const business = await repo.findOwnedBusiness(deps.db, userId);
  await recordAudit(deps.db, context, {
    action: "auth.sign_in_failed",
    businessId: business?.id ?? null,
    metadata: { reason },
  });
}

async function requirePending(deps: TwoFactorDeps, request: FastifyRequest) {
  const found = await readPending(deps.state, request);
  if (!found) {
    throw new AppError("UNAUTHENTICATED", "This sign-in has expired (5 minutes). Please sign in again.");
  }
  return found;
}

/** A wrong second factor: counted by the login throttle and by the pending sign-in (dropped after a few). */
async function secondFactorFailed(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  pending: { hash: string; userId: string; username: string },
  reason: string,
): Promise<never> {
  await deps.throttle.failed({ account: pending.username, ip: request.ip });
  await auditFailure(deps, auditContext(request, pending.userId), pending.userId, reason);
  const attempts = await deps.state.increment(pendingAttemptsKey(pending.hash), PENDING_TTL_MS);
  if (attempts >= PENDING_MAX_ATTEMPTS) {
    await endPending(deps.state, reply, pending.hash);
    throw new AppError("UNAUTHENTICATED", "Too many wrong codes. Please sign in again.");
  }
  throw new AppError(
    "UNAUTHENTICATED",
    "That code is not correct. Check your authenticator app and try again.",
  );
}

export async function completeWithCode(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
): Promise<accounts.UserRow | SignInChallenge> {
  const { hash, pending } = await requirePending(deps, request);
  const challenge = await admitSignIn(deps, request, reply, pending.username);
  if (challenge) return challenge;
  const used = await spendCode(deps, pending.userId, code);
  if (!used) return secondFactorFailed(deps, request, reply, { hash, ...pending }, "wrong_code");
  return finishSecondFactor(deps, request, reply, hash, pending, used);
}

async function finishSecondFactor(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  hash: string,
  pending: { userId: string; username: string; firstFactor: string },
  secondFactor: string,
) {
  const user = await accounts.findUserById(deps.db, pending.userId);
  if (!user) throw new AppError("UNAUTHENTICATED", "This sign-in has expired. Please sign in again.");
  await endPending(deps.state, reply, hash);
  await deps.throttle.succeeded({ account: pending.username, ip: request.ip });
  await startAuditedSession(deps, request, reply, user, { method: pending.firstFactor, secondFactor });
  return user;
}

// ---- Status and TOTP enrolment ----

export async function status(
  deps: TwoFactorDeps,
  auth: Auth,
): Promise<TwoFactorStatus & { requireTwoFactor: boolean | null }> {
  const [totp, keys, codesLeft, business] = await Promise.all([
    repo.findTotp(deps.db, auth.user.id),
    repo.listPasskeys(deps.db, auth.user.id),
    repo.countUnusedRecoveryCodes(deps.db, auth.user.id),
    repo.findOwnedBusiness(deps.db, auth.user.id),
  ]);
  return {
    totpEnabled: Boolean(totp?.confirmedAt),
    recoveryCodesLeft: codesLeft,
    passkeys: keys.map((k) => ({
      id: k.id,
      name: k.name,
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    })),
    recentSignIn: isRecent(auth),
    requireTwoFactor: business ? business.requireTwoFactor : null,
  };
}

const isRecent = (auth: Auth) => Date.now() - auth.session.createdAt.getTime() < RECENT_SIGN_IN_MS;

/** A new secret to scan; the only time it leaves the server. Replaces an unconfirmed one. */
export async function startTotpEnrolment(deps: TwoFactorDeps, auth: Auth) {
  const existing = await repo.findTotp(deps.db, auth.user.id);
  if (existing?.confirmedAt) {
    throw new AppError(
      "CONFLICT",
      "The authenticator app is already set up. Turn it off first to set up another.",
    );
  }
  const secret = generateTotpSecret();
  await repo.upsertPendingTotp(deps.db, auth.user.id, deps.box.seal(secret));
  return { secret, uri: otpauthUri(secret, auth.user.username) };
}

/** The first correct code turns TOTP on and issues the recovery codes (shown once). */
export async function confirmTotp(deps: TwoFactorDeps, request: FastifyRequest, auth: Auth, code: string) {
  const totp = await repo.findTotp(deps.db, auth.user.id);
  if (!totp) throw new AppError("CONFLICT", "Start the set-up first.");
  if (totp.confirmedAt) throw new AppError("CONFLICT", "The authenticator app is already set up.");
  const step = matchTotp(deps.box.open(totp.secretEncrypted), code, Date.now(), totp.lastUsedStep);
  if (step === null) {
    throw new AppError(
      "VALIDATION_ERROR",
      "That code is not correct. Check the time on your phone and try again.",
      {
        field: "code",
      },
    );
  }
  const business = await repo.findOwnedBusiness(deps.db, auth.user.id);
  return deps.db.transaction(async (tx) => {
    if (!(await repo.spendTotpStep(tx, auth.user.id, step, true))) {
      throw new AppError("CONFLICT", "That code was already used. Wait for the next one.");
    }
    const codes = await issueRecoveryCodes(tx, auth.user.id);
    await recordAudit(tx, auditContext(request, auth.user.id), {
      action: "two_factor.enabled",
      businessId: business?.id ?? null,
      metadata: { method: "totp" },
    });
    return codes;
  });
}

/**
 * Weakening sign-in needs a recent sign-in (RECENT_SIGN_IN_MS) or a current code: a session left open on a
 * shared computer cannot turn 2FA off. A wrong code counts as a failed sign-in.
 */
async function requireRecentSignIn(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: Auth,
  code: string | undefined,
) {
  if (isRecent(auth)) return;
  if (!code) {
    throw new AppError(
      "FORBIDDEN",
      "For your security, enter a current code from your authenticator app (or a recovery code), or sign in again.",
      { reason: "REAUTH_REQUIRED" },
    );
  }
  const challenge = await admitSignIn(deps, request, reply, auth.user.username);
  if (challenge) throw new AppError("RATE_LIMITED", "Too many wrong codes. Sign in again to continue.");
  if (!(await spendCode(deps, auth.user.id, code))) {
    await deps.throttle.failed({ account: auth.user.username, ip: request.ip });
    throw new AppError("FORBIDDEN", "That code is not correct.", { reason: "REAUTH_REQUIRED" });
  }
}

async function assertNotRequired(
  deps: TwoFactorDeps,
  userId: string,
  remaining: { totp: boolean; passkeys: number },
) {
  const business = await repo.findOwnedBusiness(deps.db, userId);
  if (business?.requireTwoFactor && !remaining.totp && remaining.passkeys === 0) {
    throw new AppError(
      "CONFLICT",
      "Your business requires two-factor sign-in. Turn that requirement off first, or keep another method.",
    );
  }
  return business;
}

export async function disableTotp(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: Auth,
  code: string | undefined,
) {
  const totp = await repo.findTotp(deps.db, auth.user.id);
  if (!totp?.confirmedAt) throw new AppError("NOT_FOUND", "The authenticator app is not set up.");
  await requireRecentSignIn(deps, request, reply, auth, code);
  const keys = await repo.listPasskeys(deps.db, auth.user.id);
  const business = await assertNotRequired(deps, auth.user.id, { totp: false, passkeys: keys.length });
  await deps.db.transaction(async (tx) => {
    await repo.deleteTotp(tx, auth.user.id);
    if (keys.length === 0) await repo.deleteRecoveryCodes(tx, auth.user.id);
    await recordAudit(tx, auditContext(request, auth.user.id), {
      action: "two_factor.disabled",
      businessId: business?.id ?? null,
      metadata: { method: "totp" },
    });
  });
}

export async function regenerateRecoveryCodes(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: Auth,
  code: string | undefined,
) {
  const totp = await repo.findTotp(deps.db, auth.user.id);
  const keys = await repo.listPasskeys(deps.db, auth.user.id);
  if (!totp?.confirmedAt && keys.length === 0) {
    throw new AppError("CONFLICT", "Turn on two-factor sign-in first.");
  }
  await requireRecentSignIn(deps, request, reply, auth, code);
  const business = await repo.findOwnedBusiness(deps.db, auth.user.id);
  return deps.db.transaction(async (tx) => {
    const codes = await issueRecoveryCodes(tx, auth.user.id);
    await recordAudit(tx, auditContext(request, auth.user.id), {
      action: "two_factor.recovery_codes_regenerated",
      businessId: business?.id ?? null,
    });
    return codes;
  });
}

/** Owner only (the business is looked up by owner): turning it on needs the owner's own second factor. */
export async function setRequireTwoFactor(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  auth: Auth,
  value: boolean,
) {
  const business = await repo.findOwnedBusiness(deps.db, auth.user.id);
  if (!business) throw new AppError("NOT_FOUND", "You have not registered a business yet.");
  if (value) {
    const totp = await repo.findTotp(deps.db, auth.user.id);
    const keys = await repo.listPasskeys(deps.db, auth.user.id);
    if (!totp?.confirmedAt && keys.length === 0) {
      throw new AppError("CONFLICT", "Turn on two-factor sign-in for your own account first.");
    }
  }
  return deps.db.transaction(async (tx) => {
    const row = await repo.setRequireTwoFactor(tx, auth.user.id, value);
    await recordAudit(tx, auditContext(request, auth.user.id), {
      action: "two_factor.required_changed",
      businessId: business.id,
      metadata: { requireTwoFactor: value },
    });
    return { requireTwoFactor: row!.requireTwoFactor };
  });
}

// ---- Passkeys ----

/** The WebAuthn library (with its X.509 and ASN.1 parsers) is loaded with the first passkey request, not at start. */
const webauthn = () => import("@simplewebauthn/server");

export async function passkeyRegistrationOptions(deps: TwoFactorDeps, auth: Auth) {
  const rp = relyingParty(deps.config);
  const existing = await repo.listPasskeys(deps.db, auth.user.id);
  if (existing.length >= 20) throw new AppError("CONFLICT", "An account can have at most 20 passkeys.");
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: auth.user.username,
    userID: new TextEncoder().encode(auth.user.id),
    attestationType: "none",
    excludeCredentials: existing.map((k) => ({ id: k.credentialId, transports: k.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await deps.state.set(registrationKey(auth.user.id), options.challenge, WEBAUTHN_TTL_MS);
  return options;
}

export async function registerPasskey(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  auth: Auth,
  input: { credential: Record<string, unknown>; name?: string | undefined },
) {
  const rp = relyingParty(deps.config);
  const expected = await deps.state.get(registrationKey(auth.user.id));
  if (!expected) throw new AppError("GONE", "The passkey request expired. Please try again.");
  await deps.state.delete(registrationKey(auth.user.id));
  const { verifyRegistrationResponse } = await webauthn();
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: input.credential as unknown as RegistrationResponseJSON,
      expectedChallenge: expected,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    });
  } catch (error) {
    throw new AppError("VALIDATION_ERROR", `The passkey could not be verified: ${(error as Error).message}`);
  }
  if (!verification.verified) throw new AppError("VALIDATION_ERROR", "The passkey could not be verified.");
  const { credential } = verification.registrationInfo;
  const business = await repo.findOwnedBusiness(deps.db, auth.user.id);
  const codesLeft = await repo.countUnusedRecoveryCodes(deps.db, auth.user.id);
  try {
    return await deps.db.transaction(async (tx) => {
      const row = await repo.insertPasskey(tx, {
        id: createId("pky"),
        userId: auth.user.id,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString("base64url"),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: input.name ?? "Passkey",
      });
      // The first second factor comes with recovery codes: a lost device must not lock the account.
      const recoveryCodes = codesLeft === 0 ? await issueRecoveryCodes(tx, auth.user.id) : null;
      await recordAudit(tx, auditContext(request, auth.user.id), {
        action: "passkey.added",
        businessId: business?.id ?? null,
        target: row.id,
        metadata: { name: row.name },
      });
      return { id: row.id, recoveryCodes };
    });
  } catch (error) {
    if (
      (error as { cause?: { code?: string } }).cause?.code === "23505" ||
      (error as { code?: string }).code === "23505"
    ) {
      throw new AppError("CONFLICT", "This passkey is already registered.");
    }
    throw error;
  }
}

export async function removePasskey(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: Auth,
  id: string,
  code: string | undefined,
) {
  const keys = await repo.listPasskeys(deps.db, auth.user.id);
  const target = keys.find((k) => k.id === id);
  if (!target) throw new AppError("NOT_FOUND", "No such passkey.");
  await requireRecentSignIn(deps, request, reply, auth, code);
  const totp = await repo.findTotp(deps.db, auth.user.id);
  const business = await assertNotRequired(deps, auth.user.id, {
    totp: Boolean(totp?.confirmedAt),
    passkeys: keys.length - 1,
  });
  await deps.db.transaction(async (tx) => {
    if (!(await repo.deletePasskeyOfUser(tx, auth.user.id, id)))
      throw new AppError("NOT_FOUND", "No such passkey.");
    if (!totp?.confirmedAt && keys.length === 1) await repo.deleteRecoveryCodes(tx, auth.user.id);
    await recordAudit(tx, auditContext(request, auth.user.id), {
      action: "passkey.removed",
      businessId: business?.id ?? null,
      target: id,
      metadata: { name: target.name },
    });
  });
}

/**
 * Options for signing in with a passkey: during a pending sign-in (second factor) only that user's passkeys;
 * otherwise any discoverable passkey of this site (password-less sign-in).
 */
export async function passkeySignInOptions(deps: TwoFactorDeps, request: FastifyRequest) {
  const rp = relyingParty(deps.config);
  const found = await readPending(deps.state, request);
  const keys = found ? await repo.listPasskeys(deps.db, found.pending.userId) : [];
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    userVerification: found ? "preferred" : "required",
    allowCredentials: keys.map((k) => ({ id: k.credentialId, transports: k.transports })),
  });
  await deps.state.set(assertionKey(options.challenge), found ? found.hash : "-", WEBAUTHN_TTL_MS);
  return options;
}

export async function signInWithPasskey(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  credential: Record<string, unknown> & { id: string; response: Record<string, unknown> },
): Promise<accounts.UserRow | SignInChallenge> {
  const rp = relyingParty(deps.config);
  const refused = () =>
    new AppError("UNAUTHENTICATED", "This passkey could not be verified. Please try again.");
  const challenge = challengeOf(credential);
  const boundTo = challenge ? await deps.state.get(assertionKey(challenge)) : null;
  if (
    !challenge ||
    !boundTo ||
    !(await deps.state.setIfAbsent(`webauthn:used:${challenge}`, "1", WEBAUTHN_TTL_MS))
  ) {
    throw new AppError("GONE", "The passkey request expired. Please try again.");
  }
  await deps.state.delete(assertionKey(challenge));
  const found = boundTo === "-" ? null : await readPending(deps.state, request);
  if (boundTo !== "-" && found?.hash !== boundTo) {
    throw new AppError("UNAUTHENTICATED", "This sign-in has expired (5 minutes). Please sign in again.");
  }
  const key = await repo.findPasskeyByCredentialId(deps.db, credential.id);
  if (!key || (found && key.userId !== found.pending.userId)) {
    if (found)
      return secondFactorFailed(
        deps,
        request,
        reply,
        { hash: found.hash, ...found.pending },
        "unknown_passkey",
      );
    throw refused();
  }
  const user = await accounts.findUserById(deps.db, key.userId);
  if (!user) throw refused();
  const admitted = await admitSignIn(deps, request, reply, user.username);
  if (admitted) return admitted;
  let verified = false;
  let newCounter = key.counter;
  try {
    const { verifyAuthenticationResponse } = await webauthn();
    const result = await verifyAuthenticationResponse({
      response: credential as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: key.credentialId,
        publicKey: new Uint8Array(Buffer.from(key.publicKey, "base64url")),
        counter: key.counter,
        transports: key.transports as never,
      },
      // Without a pending sign-in the passkey is the whole sign-in: the user must have been verified.
      requireUserVerification: !found,
    });
    verified = result.verified;
    newCounter = result.authenticationInfo.newCounter;
  } catch {
    verified = false;
  }
  if (!verified) {
    if (found)
      return secondFactorFailed(
        deps,
        request,
        reply,
        { hash: found.hash, ...found.pending },
        "passkey_failed",
      );
    await deps.throttle.failed({ account: user.username, ip: request.ip });
    await auditFailure(deps, auditContext(request, user.id), user.id, "passkey_failed");
    throw refused();
  }
  await repo.touchPasskey(deps.db, key.id, newCounter);
  if (found) return finishSecondFactor(deps, request, reply, found.hash, found.pending, "passkey");
  await deps.throttle.succeeded({ account: user.username, ip: request.ip });
  await completeFirstFactor(deps, request, reply, user, "passkey");
  return user;
}
