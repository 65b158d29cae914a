import type { SessionRow, UserRow } from "./repository.ts";

/**
 * Recently validated sessions, so a signed-in request does not cost a database query each time.
 * Entries live 2 s. Every write that ends a session or changes a user forgets that user's entries on this
 * instance at once (see repository.ts); another instance notices within those 2 s. Decision 004 explains.
 */
const TTL_MS = 2000;
const MAX_ENTRIES = 10_000;

type Entry = { session: SessionRow; user: UserRow; cachedAt: number };
const entries = new Map<string, Entry>();

export function getCachedSession(
  tokenHash: string,
  now: number,
): { session: SessionRow; user: UserRow } | null {
  const entry = entries.get(tokenHash);
  if (!entry) return null;
  if (now - entry.cachedAt >= TTL_MS || entry.session.expiresAt.getTime() <= now) {
    entries.delete(tokenHash);
    return null;
  }
  return entry;
}

export function cacheSession(tokenHash: string, auth: { session: SessionRow; user: UserRow }, now: number) {
  if (entries.size >= MAX_ENTRIES) {
    // Map iteration is insertion order: drop the oldest.
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  entries.set(tokenHash, { ...auth, cachedAt: now });
}

/** Called by every write that ends sessions or changes a user. */
export function forgetUserSessions(userId: string) {
  for (const [key, entry] of entries) if (entry.user.id === userId) entries.delete(key);
}
