import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { DbOrTx } from "../../db/client.ts";
import { createId, createToken } from "../../lib/ids.ts";
import { extendSession, insertSession, type SessionRow, type UserRow } from "./repository.ts";
import "./session-cache.ts";

export const SESSION_COOKIE = "cpxtb_session";
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session's expiry slides forward at most this often, so a busy user does not cost a write per request. */
const EXTEND_EVERY_MS = 60 * 1000;

export type Auth = { user: UserRow; session: SessionRow };

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function describeDevice(userAgent: string | undefined): string | null {
  return userAgent ? userAgent.slice(0, 300) : null;
}

/** Starts a session for the user and sets its cookie; a new random token each time (no fixation). */
export async function startSession(
  db: DbOrTx,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<SessionRow> {
  const token = createToken();
  const now = new Date();
  const session = await insertSession(db, {
    id: createId("ses"),
    tokenHash: hashToken(token),
    userId,
    userAgent: describeDevice(request.headers["user-agent"]),
    ip: request.ip,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  });
  setSessionCookie(reply, token);
  request.auth = undefined;
  return session;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Cookies carry Secure whenever the public origin is https (decision 010); set by app.ts. */
    secureCookies: boolean;
  }
}

export function setSessionCookie(reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: reply.server.secureCookies,
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: reply.server.secureCookies,
  });
}

/**
 * The signed-in user of this request, or null. Looked up once per request, only when a route asks.
 * Extends the session (database and cookie) when it was last extended more than a minute ago.
 */
export async function resolveAuth(
  db: DbOrTx,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Auth | null> {
  if (request.auth !== undefined) return request.auth;
  const token = request.cookies[SESSION_COOKIE];
  if (!token || token.length > 100) {
    request.auth = null;
    return null;
  }
  const now = new Date();
  const tokenHash = hashToken(token);
  const found = await request.server.sessionCache.lookup(db, tokenHash, now);
  if (!found) {
    clearSessionCookie(reply);
    request.auth = null;
    return null;
  }
  if (now.getTime() - found.session.lastSeenAt.getTime() > EXTEND_EVERY_MS) {
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    // Marked first: concurrent requests sharing this cached row then extend it once, not once each.
    found.session.lastSeenAt = now;
    await extendSession(db, found.session.id, now, expiresAt);
    found.session.expiresAt = expiresAt;
    setSessionCookie(reply, token);
  }
  request.auth = found;
  return found;
}

declare module "fastify" {
  interface FastifyRequest {
    /** undefined: not looked up yet; null: signed out. Use `resolveAuth` / `requireAuth`. */
    auth: Auth | null | undefined;
  }
}
