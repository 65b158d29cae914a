import { createHash, randomBytes } from "node:crypto";
import {
  type AddFactorProof,
  REAUTH_REQUIRED,
  RECENT_SIGN_IN_MS,
  RECOVERY_CODE_COUNT,
  type ReauthAccepts,
  type TwoFactorStatus,
} from "@common/two-factor.ts";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import type { Mailer } from "../../lib/mailer.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import { type AuditContext, auditContext, recordAudit } from "../audit/record.ts";
import type { LoginThrottle } from "../auth/login-throttle.ts";
import { verifyPassword } from "../auth/passwords.ts";
import * as accounts from "../auth/repository.ts";
import { admitSignIn, type SignInChallenge } from "../auth/service.ts";
import type { Auth } from "../auth/session.ts";
import { findMembership } from "../merchants/repository.ts";
import type { ChallengeService } from "../security/challenge-service.ts";
import type { ClientKeyResolver } from "../security/rate-limit.ts";
import { notifyFactorChange } from "./change-notice.ts";
import * as repo from "./repository.ts";
import type { SecretBox } from "./secret-box.ts";
import {
  completeFirstFactor,
  endPending,
  PENDING_MAX_ATTEMPTS,
  PENDING_TTL_MS,
  pendingAttemptsKey,
  readPending,
  secondFactorsOf,
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
  /** Tells the owner by email whenever a second factor is added or removed (or new recovery codes are made). */
  mailer: Mailer;
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

const tooManyCodes = () => new AppError("UNAUTHENTICATED", "Too many wrong codes. Please sign in again.");

/**
 * Counts one more second-factor attempt on a pending sign-in *before* it is checked, atomically in the shared
 * state: however many guesses arrive at once, on however many instances, at most PENDING_MAX_ATTEMPTS are ever
 * checked. Past the cap the pending sign-in ends unchecked.
 */
async function countAttempt(deps: TwoFactorDeps, reply: FastifyReply, hash: string): Promise<number> {
  const attempts = await deps.state.increment(pendingAttemptsKey(hash), PENDING_TTL_MS);
  if (attempts > PENDING_MAX_ATTEMPTS) {
    await endPending(deps.state, reply, hash);
    throw tooManyCodes();
  }
  return attempts;
}

/** A wrong second factor: counted by the login throttle, and the last allowed one ends the pending sign-in. */
async function secondFactorFailed(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  pending: { hash: string; userId: string; username: string },
  reason: string,
  attempts: number,
): Promise<never> {
  await deps.throttle.failed({ account: pending.username, ip: request.ip });
  await auditFailure(deps, auditContext(request, pending.userId), pending.userId, reason);
  if (attempts >= PENDING_MAX_ATTEMPTS) {
    await endPending(deps.state, reply, pending.hash);
    throw tooManyCodes();
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
  const attempts = await countAttempt(deps, reply, hash);
  const used = await spendCode(deps, pending.userId, code);
  if (!used) return secondFactorFailed(deps, request, reply, { hash, ...pending }, "wrong_code", attempts);
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
  const [totp, keys, codesLeft, membership] = await Promise.all([
    repo.findTotp(deps.db, auth.user.id),
    repo.listPasskeys(deps.db, auth.user.id),
    repo.countUnusedRecoveryCodes(deps.db, auth.user.id),
    findMembership(deps.db, auth.user.id),
  ]);
  // The setting is offered for the business the user acts for, when they own it (as its route allows).
  const business = membership?.role === "owner" ? membership.merchant : null;
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

/**
 * A new secret to scan; the only time it leaves the server. Replaces an unconfirmed one. Needs a recent sign-in
 * or a proof (`requireOwnerProof`); the confirmation then needs only the code, as the secret went to this caller.
 */
export async function startTotpEnrolment(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: Auth,
  proof: AddFactorProof,
) {
  const existing = await repo.findTotp(deps.db, auth.user.id);
  if (existing?.confirmedAt) {
    throw new AppError(
      "CONFLICT",
      "The authenticator app is already set up. Turn it off first to set up another.",
    );
  }
  await requireOwnerProof(deps, request, reply, auth, proof, "add");
  const secret = generateTotpSecret();
  await repo.upsertPendingTotp(deps.db, auth.user.id, deps.box.seal(secret));
  return { secret, uri: otpauthUri(secret, auth.user.username) };
}

/** A set-up's secret must be confirmed this soon after it was shown (a QR code left on a screen expires). */
const TOTP_SETUP_TTL_MS = 15 * 60 * 1000;

/** The first correct code turns TOTP on and issues the recovery codes (shown once). */
export async function confirmTotp(deps: TwoFactorDeps, request: FastifyRequest, auth: Auth, code: string) {
  const totp = await repo.findTotp(deps.db, auth.user.id);
  if (!totp) throw new AppError("CONFLICT", "Start the set-up first.");
  if (totp.confirmedAt) throw new AppError("CONFLICT", "The authenticator app is already set up.");
  if (Date.now() - totp.createdAt.getTime() > TOTP_SETUP_TTL_MS) {
    throw new AppError("GONE", "This set-up has expired (15 minutes). Start it again.");
  }
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
  const codes = await deps.db.transaction(async (tx) => {
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
  notifyFactorChange(deps, request, auth, "totp_enabled");
  return codes;
}

/** Proofs that it is still the owner (a password, a code) per account, before the next sign-in is needed. */
const REAUTH_MAX_ATTEMPTS = 5;
const REAUTH_WINDOW_MS = 15 * 60 * 1000;
const reauthAttemptsKey = (userId: string) => `2fa:reauth-attempts:${userId}`;

/**
 * Changing the second factors needs a recent sign-in (RECENT_SIGN_IN_MS) or a proof that it is still the owner:
 * a session left open on a shared computer, or stolen, can neither turn 2FA off nor add the thief's own factor
 * (which would then lock the owner out of their password sign-in and let the thief in with it alone).
 *
 * - "weaken" (turn off, remove, regenerate codes): a current code of the app, or a recovery code.
 * - "add" (set up the app, add a passkey): the account's password, or a current code of a factor it has.
 *   An account with neither (a social or wallet account without 2FA) signs in again.
 *
 * Each proof is counted before it is checked (atomically in the shared state, so parallel guesses on several
 * instances cannot exceed REAUTH_MAX_ATTEMPTS) and a wrong one counts as a failed sign-in.
 */
async function requireOwnerProof(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: Auth,
  proof: AddFactorProof,
  purpose: "weaken" | "add",
) {
  if (isRecent(auth)) return;
  const accepts: ReauthAccepts = [];
  if (purpose === "add" && auth.user.passwordHash) accepts.push("password");
  if (purpose === "weaken" || (await secondFactorsOf(deps.db, auth.user.id)).some((m) => m !== "passkey")) {
    accepts.push("code");
  }
  const details = { reason: REAUTH_REQUIRED, accepts };
  const given =
    proof.password !== undefined && accepts.includes("password")
      ? "password"
      : proof.code !== undefined && accepts.includes("code")
        ? "code"
        : null;
  if (!given) throw new AppError("FORBIDDEN", reauthMessage(purpose, accepts), details);
  const challenge = await admitSignIn(deps, request, reply, auth.user.username);
  if (challenge) throw new AppError("RATE_LIMITED", "Too many wrong codes. Sign in again to continue.");
  const attempts = await deps.state.increment(reauthAttemptsKey(auth.user.id), REAUTH_WINDOW_MS);
  if (attempts > REAUTH_MAX_ATTEMPTS) {
    throw new AppError(
      "RATE_LIMITED",
      "Too many wrong codes or passwords. Sign out and sign in again to change your second factors.",
    );
  }
  const right =
    given === "password"
      ? await verifyPassword(auth.user.passwordHash, proof.password!)
      : (await spendCode(deps, auth.user.id, proof.code!)) !== null;
  if (!right) {
    await deps.throttle.failed({ account: auth.user.username, ip: request.ip });
    const message = given === "password" ? "That password is not correct." : "That code is not correct.";
    throw new AppError("FORBIDDEN", message, details);
  }
  await deps.state.delete(reauthAttemptsKey(auth.user.id));
}

function reauthMessage(purpose: "weaken" | "add", accepts: ReauthAccepts): string {
  if (purpose === "weaken") {
    return "For your security, enter a current code from your authenticator app (or a recovery code), or sign in again.";
  }
  if (accepts.includes("password") && accepts.includes("code")) {
    return "For your security, enter your password (or a current code from your authenticator app or a recovery code) to add a second factor, or sign in again.";
  }
  if (accepts.includes("password")) {
    return "For your security, enter your password to add a second factor, or sign in again.";
  }
  if (accepts.includes("code")) {
    return "For your security, enter a current code from your authenticator app (or a recovery code) to add a second factor, or sign in again.";
  }
  return "For your security, sign out and sign in again (your last sign-in was more than 10 minutes ago) to add a second factor.";
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
  await requireOwnerProof(deps, request, reply, auth, { code }, "weaken");
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
  notifyFactorChange(deps, request, auth, "totp_disabled");
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
  await requireOwnerProof(deps, request, reply, auth, { code }, "weaken");
  const business = await repo.findOwnedBusiness(deps.db, auth.user.id);
  const codes = await deps.db.transaction(async (tx) => {
    const codes = await issueRecoveryCodes(tx, auth.user.id);
    await recordAudit(tx, auditContext(request, auth.user.id), {
      action: "two_factor.recovery_codes_regenerated",
      businessId: business?.id ?? null,
    });
    return codes;
  });
  notifyFactorChange(deps, request, auth, "recovery_codes");
  return codes;
}

/** Owner only (the business is looked up by owner): turning it on needs the owner's own second factor. */
export async function setRequireTwoFactor(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  auth: Auth,
  /** The business the owner acts for, as the route's access check found it. */
  business: { id: string },
  value: boolean,
) {
  if (value) {
    const totp = await repo.findTotp(deps.db, auth.user.id);
    const keys = await repo.listPasskeys(deps.db, auth.user.id);
    if (!totp?.confirmedAt && keys.length === 0) {
      throw new AppError("CONFLICT", "Turn on two-factor sign-in for your own account first.");
    }
  }
  return deps.db.transaction(async (tx) => {
    const row = await repo.setRequireTwoFactor(tx, auth.user.id, business.id, value);
    if (!row) throw new AppError("FORBIDDEN", "Only the owner of this business can change this setting.");
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

/** Needs a recent sign-in or a proof (`requireOwnerProof`); the registration then needs this challenge. */
export async function passkeyRegistrationOptions(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: Auth,
  proof: AddFactorProof,
) {
  const rp = relyingParty(deps.config);
  const existing = await repo.listPasskeys(deps.db, auth.user.id);
  if (existing.length >= 20) throw new AppError("CONFLICT", "An account can have at most 20 passkeys.");
  await requireOwnerProof(deps, request, reply, auth, proof, "add");
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
    const created = await deps.db.transaction(async (tx) => {
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
      return { id: row.id, name: row.name, recoveryCodes };
    });
    notifyFactorChange(deps, request, auth, "passkey_added", created.name);
    return { id: created.id, recoveryCodes: created.recoveryCodes };
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
  await requireOwnerProof(deps, request, reply, auth, { code }, "weaken");
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
  notifyFactorChange(deps, request, auth, "passkey_removed", target.name);
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
  // As a second factor, counted before it is checked (like a code).
  const attempts = found ? await countAttempt(deps, reply, found.hash) : 0;
  const key = await repo.findPasskeyByCredentialId(deps.db, credential.id);
  if (!key || (found && key.userId !== found.pending.userId)) {
    if (found)
      return secondFactorFailed(
        deps,
        request,
        reply,
        { hash: found.hash, ...found.pending },
        "unknown_passkey",
        attempts,
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
        attempts,
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
