import type { SocialAuthResponse } from "@common/social";
import { SOCIAL_PROVIDERS, type SocialProvider } from "@common/social-values";
import { SOCIAL_USER_STORAGE_KEY } from "./social-keys";

export { SOCIAL_USER_STORAGE_KEY };

/** Spec section 8: the balance the fallback user is given. It is a demo number, never shown as real tokens. */
export const FALLBACK_BALANCE = "500.0";

/**
 * The stored social-login user (spec section 3): userInfo, walletAddress, balance. `mode` is ours (PRODUCT.md
 * decision 3): "account" came from the server; "demo" is the invented fallback user and "emergency" the one
 * written after a further failure. Neither of those has a session, a wallet or tokens.
 */
export interface StoredSocialUser {
  userInfo: { name: string; email: string; provider: SocialProvider };
  walletAddress: string;
  balance: string;
  mode: "account" | "demo" | "emergency";
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DECIMAL = /^\d{1,30}(\.\d{1,18})?$/;
const MODES = ["account", "demo", "emergency"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function shortString(value: unknown, max: number): value is string {
  return typeof value === "string" && value.length <= max;
}

/**
 * A stored record, checked field by field; null for anything that is not one (bad JSON, wrong shape, an
 * impossible address or balance). A record without `mode` (an older one) is an account record.
 */
export function parseStoredSocialUser(raw: string | null): StoredSocialUser | null {
  if (raw === null || raw.length > 10_000) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value) || !isRecord(value.userInfo)) return null;
  const { name, email, provider } = value.userInfo;
  const mode = value.mode ?? "account";
  if (!shortString(name, 200) || !shortString(email, 320)) return null;
  if (!SOCIAL_PROVIDERS.includes(provider as SocialProvider)) return null;
  if (!MODES.includes(mode as StoredSocialUser["mode"])) return null;
  const { walletAddress, balance } = value;
  if (typeof walletAddress !== "string" || typeof balance !== "string" || !DECIMAL.test(balance)) return null;
  // The emergency user has no address at all; every other record carries a well-formed one.
  if (mode === "emergency" ? walletAddress !== "" : !ADDRESS.test(walletAddress)) return null;
  return {
    userInfo: { name, email, provider: provider as SocialProvider },
    walletAddress,
    balance,
    mode: mode as StoredSocialUser["mode"],
  };
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The record kept at start (spec section 4); a corrupt one is deleted. */
export function readStoredSocialUser(storage: Storage | null = safeStorage()): StoredSocialUser | null {
  const raw = storage?.getItem(SOCIAL_USER_STORAGE_KEY) ?? null;
  const user = parseStoredSocialUser(raw);
  if (raw !== null && user === null) storage?.removeItem(SOCIAL_USER_STORAGE_KEY);
  return user;
}

/** Throws when the storage refuses (full, disabled): the caller decides what a failure means. */
export function writeStoredSocialUser(user: StoredSocialUser, storage: Storage | null = safeStorage()) {
  if (!storage) throw new Error("Local storage is not available");
  storage.setItem(SOCIAL_USER_STORAGE_KEY, JSON.stringify(user));
}

export function clearStoredSocialUser(storage: Storage | null = safeStorage()) {
  storage?.removeItem(SOCIAL_USER_STORAGE_KEY);
}

export function accountUser(provider: SocialProvider, answer: SocialAuthResponse): StoredSocialUser {
  return {
    userInfo: { name: answer.name, email: answer.email, provider },
    walletAddress: answer.walletAddress,
    balance: answer.balance,
    mode: "account",
  };
}

/** Spec section 8: the invented fallback user, a random address and 500.0; marked as a demo (decision 3). */
export function fallbackUser(provider: SocialProvider): StoredSocialUser {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return {
    userInfo: { name: "Demo user", email: "", provider },
    walletAddress: `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`,
    balance: FALLBACK_BALANCE,
    mode: "demo",
  };
}

/** Spec section 8: after a further failure; nothing but a name, and a request to reload. */
export function emergencyUser(provider: SocialProvider): StoredSocialUser {
  return {
    userInfo: { name: "Emergency user", email: "", provider },
    walletAddress: "",
    balance: "0",
    mode: "emergency",
  };
}
