import type { RegisterRequest, User } from "@common/auth.ts";
import type { MathChallenge } from "@common/challenge.ts";
import type { Locale } from "@common/locales.ts";
import type { TwoFactorRequired } from "@common/two-factor.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { recipientLocale } from "../../lib/i18n.ts";
import { createId, createToken } from "../../lib/ids.ts";
import type { Mailer } from "../../lib/mailer.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import { auditContext, recordAudit } from "../audit/record.ts";
import type { ChallengeService } from "../security/challenge-service.ts";
import type { ClientKeyResolver } from "../security/rate-limit.ts";
import { findOwnedBusiness } from "../two-factor/repository.ts";
import { completeFirstFactor, startAuditedSession } from "../two-factor/sign-in.ts";
import { passwordResetEmail, verificationEmail } from "./emails.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import { hashPassword, passwordProblem, verifyPassword } from "./passwords.ts";
import * as repo from "./repository.ts";
import { type Auth, clearSessionCookie, hashToken } from "./session.ts";
import type { SessionCache } from "./session-cache.ts";

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const VERIFY_TOKEN_TTL_MS = 48 * 60 * 60 * 1000;

export type AuthDeps = {
  db: Db;
  mailer: Mailer;
  config: Config;
  throttle: LoginThrottle;
  /** Told after every committed change that ends sessions or changes a user (every instance hears it). */
  sessions: SessionCache;
  challenges: ChallengeService;
  /** The rate limiter's client key: a sign-in challenge is bound to it, as /api/verify-challenge computes it. */
  clientKey: ClientKeyResolver;
  /** Holds pending two-factor sign-ins (decision 019). */
  state: SharedState;
};

/** The account is past its failure threshold and this attempt brought no solved challenge. */
export class SignInChallenge {
  constructor(readonly challenge: MathChallenge) {}
}

export function toUserResponse(user: repo.UserRow): User {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    email: user.email,
    pendingEmail: user.pendingEmail,
    hasPassword: user.passwordHash !== null,
    preferences: { theme: user.theme, notifyPaymentEmails: user.notifyPaymentEmails },
    createdAt: user.createdAt.toISOString(),
  };
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint: name, message } = e as { code?: string; constraint?: string; message?: string };
    if (code === "23505") return !constraint || name === constraint || Boolean(message?.includes(constraint));
  }
  return false;
}

function assertPasswordAcceptable(password: string, username?: string) {
  const problem = passwordProblem(password, username);
  if (problem) throw new AppError("VALIDATION_ERROR", problem);
}

/** Links in emails point at the public origin, never at the Host a request named (decision 010). */
function linkBase(config: Config): string {
  return config.publicUrl;
}

/**
 * The login throttle's verdict on one more sign-in attempt (a password, or a second factor, which is guarded
 * exactly like one): 429 with Retry-After while the account or address must wait; after many failures on the
 * account, a solved challenge per attempt (never a lockout). Null: go on.
 */
export async function admitSignIn(
  deps: Pick<AuthDeps, "throttle" | "clientKey" | "challenges">,
  request: FastifyRequest,
  reply: FastifyReply,
  account: string,
): Promise<SignInChallenge | null> {
  const admission = await deps.throttle.admit({ account, ip: request.ip });
  if (admission.kind === "wait") {
    reply.header("Retry-After", String(admission.seconds));
    throw new AppError(
      "RATE_LIMITED",
      `Too many sign-in attempts. Try again in ${admission.seconds} second${admission.seconds === 1 ? "" : "s"}.`,
      { reason: "sign_in_throttled", retryAfterSeconds: admission.seconds },
    );
  }
  if (admission.kind === "challenge") {
    const key = await deps.clientKey(request, reply);
    if (!(await deps.challenges.consumePass(key, "login"))) {
      return new SignInChallenge(await deps.challenges.challengeForExcess(key, "login", 60_000));
    }
  }
  return null;
}

async function sendEmailVerification(deps: AuthDeps, userId: string, email: string, language: Locale) {
  const token = createToken();
  await repo.insertEmailToken(deps.db, {
    id: createId("etk"),
    userId,
    purpose: "email_verification",
    tokenHash: hashToken(token),
    email,
    expiresAt: new Date(Date.now() + VERIFY_TOKEN_TTL_MS),
  });
  const link = `${linkBase(deps.config)}/api/verify-email?token=${token}`;
  await deps.mailer.send(verificationEmail(email, language, link, VERIFY_TOKEN_TTL_MS));
}

export async function register(
  deps: AuthDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  input: RegisterRequest,
) {
  assertPasswordAcceptable(input.password, input.username);
  const passwordHash = await hashPassword(input.password);
  let user: repo.UserRow;
  try {
    user = await repo.insertUser(deps.db, {
      id: createId("usr"),
      username: input.username,
      pendingEmail: input.email ?? null,
      passwordHash,
      timeZone: input.timeZone ?? null,
      locale: input.locale ?? null,
    });
  } catch (error) {
    if (isUniqueViolation(error, "users_username_lower_key")) {
      throw new AppError("CONFLICT", "That username is already taken. Choose another one.");
    }
    throw error;
  }
  await startAuditedSession(deps, request, reply, user, { method: "register" });
  if (input.email) {
    const language = recipientLocale(user.locale, request);
    await sendEmailVerification(deps, user.id, input.email, language).catch((error) =>
      request.log.error({ err: error }, "could not send the email verification"),
    );
  }
  return user;
}

export async function login(
  deps: AuthDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { username: string; password: string; timeZone?: string; locale?: string },
): Promise<repo.UserRow | TwoFactorRequired | SignInChallenge> {
  const subject = { account: input.username, ip: request.ip };
  const refused = await admitSignIn(deps, request, reply, input.username);
  if (refused) return refused;
  const user = await repo.findUserByLogin(deps.db, input.username);
  const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !valid) {
    await deps.throttle.failed(subject);
    // Only attempts on an existing account are recorded (whoever owns it can see them); the name typed for an
    // unknown one is not kept.
    if (user) {
      const business = await findOwnedBusiness(deps.db, user.id);
      await recordAudit(deps.db, auditContext(request, user.id), {
        action: "auth.sign_in_failed",
        businessId: business?.id ?? null,
        metadata: { reason: "wrong_password" },
      });
    }
    throw new AppError("UNAUTHENTICATED", "Incorrect username or password.");
  }
  await rememberReaderPlace(deps.db, user, input);
  const result = await completeFirstFactor(deps, request, reply, user, "password");
  // With a second factor pending the failures are not cleared: wrong codes keep adding to them, so a known
  // password does not reset the count between guesses of the code.
  if (!("twoFactorRequired" in result)) await deps.throttle.succeeded(subject);
  return result;
}

/** Keeps the zone and language the browser reported (emails use them), when they changed. */
export async function rememberReaderPlace(
  db: Db,
  user: Pick<repo.UserRow, "id" | "timeZone" | "locale">,
  place: { timeZone?: string; locale?: string },
) {
  const changes = {
    ...(place.timeZone && place.timeZone !== user.timeZone ? { timeZone: place.timeZone } : {}),
    ...(place.locale && place.locale !== user.locale ? { locale: place.locale } : {}),
  };
  if (Object.keys(changes).length > 0) await repo.updateUser(db, user.id, changes);
}

export async function logout(
  deps: AuthDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: Auth | null,
) {
  if (auth) {
    const business = await findOwnedBusiness(deps.db, auth.user.id);
    await deps.db.transaction(async (tx) => {
      if (await repo.deleteSession(tx, auth.user.id, auth.session.id)) {
        await recordAudit(tx, auditContext(request, auth.user.id), {
          action: "auth.sign_out",
          businessId: business?.id ?? null,
        });
      }
    });
    await deps.sessions.changed(auth.user.id, { ended: true });
  }
  clearSessionCookie(reply);
}

export async function requestPasswordReset(deps: AuthDeps, request: FastifyRequest, email: string) {
  // The answer never depends on whether the email is known, and neither does its timing: the work is not awaited.
  void (async () => {
    const user = await repo.findUserByVerifiedEmail(deps.db, email);
    if (!user) return;
    const token = createToken();
    await repo.insertEmailToken(deps.db, {
      id: createId("etk"),
      userId: user.id,
      purpose: "password_reset",
      tokenHash: hashToken(token),
      email: user.email!,
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
    const link = `${linkBase(deps.config)}/reset-password?token=${token}`;
    // Whoever asks need not be signed in: the account's language, else the language of the page they asked on.
    const language = recipientLocale(user.locale, request);
    await deps.mailer.send(
      passwordResetEmail(user.email!, language, { username: user.username, link, ttlMs: RESET_TOKEN_TTL_MS }),
    );
  })().catch((error) => request.log.error({ err: error }, "could not send the password reset email"));
}

export async function checkResetToken(deps: AuthDeps, token: string) {
  const row = await repo.findEmailToken(deps.db, "password_reset", hashToken(token));
  if (!row) return { valid: false, reason: "unknown" as const };
  if (row.usedAt) return { valid: false, reason: "used" as const };
  if (row.expiresAt.getTime() <= Date.now()) return { valid: false, reason: "expired" as const };
  return { valid: true };
}

const RESET_LINK_PROBLEMS = {
  unknown: "This reset link is not valid. Ask for a new one.",
  used: "This reset link has already been used. Ask for a new one.",
  expired: "This reset link has expired (links work for one hour). Ask for a new one.",
} as const;

export async function resetPassword(
  deps: AuthDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { token: string; password: string },
) {
  const check = await checkResetToken(deps, input.token);
  if (!check.valid) throw new AppError("GONE", RESET_LINK_PROBLEMS[check.reason ?? "unknown"]);
  const row = (await repo.findEmailToken(deps.db, "password_reset", hashToken(input.token)))!;
  const user = await repo.findUserById(deps.db, row.userId);
  if (!user) throw new AppError("GONE", RESET_LINK_PROBLEMS.unknown);
  assertPasswordAcceptable(input.password, user.username);
  const passwordHash = await hashPassword(input.password);
  const updated = await deps.db.transaction(async (tx) => {
    const now = new Date();
    if (!(await repo.consumeEmailToken(tx, row.id, now))) return null;
    await repo.consumeUserEmailTokens(tx, user.id, "password_reset", now);
    await repo.updateUser(tx, user.id, { passwordHash });
    await repo.deleteUserSessions(tx, user.id);
    return true;
  });
  if (!updated) throw new AppError("GONE", RESET_LINK_PROBLEMS.used);
  await deps.sessions.changed(user.id, { ended: true });
  // The emailed link replaces the password, not the second factor.
  const result = await completeFirstFactor(deps, request, reply, user, "password");
  if (!("twoFactorRequired" in result))
    await deps.throttle.succeeded({ account: user.username, ip: request.ip });
  return result;
}

export async function verifyEmail(deps: AuthDeps, token: string): Promise<"verified" | "invalid" | "taken"> {
  const row = await repo.findEmailToken(deps.db, "email_verification", hashToken(token));
  if (!row) return "invalid";
  try {
    const result = await deps.db.transaction(async (tx) => {
      if (!(await repo.consumeEmailToken(tx, row.id, new Date()))) return "invalid" as const;
      await repo.updateUser(tx, row.userId, { email: row.email, pendingEmail: null });
      return "verified" as const;
    });
    if (result === "verified") await deps.sessions.changed(row.userId, { ended: false });
    return result;
  } catch (error) {
    if (isUniqueViolation(error, "users_email_lower_key")) return "taken";
    throw error;
  }
}

export async function changeUsername(deps: AuthDeps, auth: Auth, username: string) {
  try {
    const user = (await repo.updateUser(deps.db, auth.user.id, { username }))!;
    await deps.sessions.changed(auth.user.id, { ended: false });
    return user;
  } catch (error) {
    if (isUniqueViolation(error, "users_username_lower_key")) {
      throw new AppError("CONFLICT", "That username is already taken. Choose another one.");
    }
    throw error;
  }
}

export async function changeEmail(deps: AuthDeps, request: FastifyRequest, auth: Auth, email: string) {
  if (auth.user.email?.toLowerCase() === email.toLowerCase()) {
    const user = (await repo.updateUser(deps.db, auth.user.id, { pendingEmail: null }))!;
    await deps.sessions.changed(auth.user.id, { ended: false });
    return user;
  }
  const user = (await repo.updateUser(deps.db, auth.user.id, { pendingEmail: email }))!;
  await deps.sessions.changed(auth.user.id, { ended: false });
  await sendEmailVerification(deps, user.id, email, recipientLocale(user.locale, request));
  return user;
}

export async function changePassword(
  deps: AuthDeps,
  auth: Auth,
  input: { currentPassword?: string | undefined; newPassword: string },
) {
  if (
    auth.user.passwordHash &&
    !(await verifyPassword(auth.user.passwordHash, input.currentPassword ?? ""))
  ) {
    throw new AppError("FORBIDDEN", "The current password is not correct.");
  }
  assertPasswordAcceptable(input.newPassword, auth.user.username);
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.transaction(async (tx) => {
    await repo.updateUser(tx, auth.user.id, { passwordHash });
    await repo.consumeUserEmailTokens(tx, auth.user.id, "password_reset", new Date());
    await repo.deleteUserSessions(tx, auth.user.id, auth.session.id);
  });
  await deps.sessions.changed(auth.user.id, { ended: true });
}
