import { RELOAD_AFTER_LOGIN_MS, SOCIAL_PROVIDER_NAMES, type SocialProvider } from "@common/social-values";
import * as React from "react";
import { USER_QUERY_KEY } from "@/features/auth/api/get-user";
import { authWords, pageWordsHanded } from "@/features/auth/auth-words";
import { toast } from "@/hooks/use-toast";
import { apiRequest, isApiError } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { web3AuthEnabled } from "@/lib/web3-auth-gate";
import { postSocialAuth } from "./api/social";
import { SOCIAL_POPUP_CHANNEL, socialPopupCompletionUrl } from "./popup-complete";
import { PENDING_REAL_LOGIN_KEY, socialStateAtStart } from "./social-keys";
import {
  accountUser,
  clearStoredSocialUser,
  emergencyUser,
  fallbackUser,
  readStoredSocialUser,
  type StoredSocialUser,
  writeStoredSocialUser,
} from "./social-storage";

/**
 * The social-login state of spec section 4: the stored user (restored at start), and what is under way (a
 * sign-in window open, or the reload after a real login). One store for the whole page, outside React, so every
 * lazy part that shows it sees the same user.
 */
export interface SocialSession {
  user: StoredSocialUser | null;
  /** The basic login's window is open for this provider. */
  waitingFor: SocialProvider | null;
  /** A real login just completed: the page reloads in RELOAD_AFTER_LOGIN_MS. */
  reloading: boolean;
}

/**
 * How long a refusal met at start waits for the page's words (its chunk and catalog load beside the session's
 * request); a page with none (English) says it after this.
 */
const PAGE_WORDS_WAIT_MS = 4000;

let state: SocialSession = { user: readStoredSocialUser(), waitingFor: null, reloading: false };
const listeners = new Set<() => void>();
// A request cut off by leaving the page is not a failed login: no fallback user is made up for it.
let leaving = false;
if (typeof window !== "undefined") window.addEventListener("pagehide", () => (leaving = true));

function update(next: Partial<SocialSession>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What the server renders (it cannot read storage), and so what the browser's hydrating render reads too. */
const SERVER_SESSION: SocialSession = { user: null, waitingFor: null, reloading: false };

export function useSocialSession(): SocialSession {
  return React.useSyncExternalStore(
    subscribe,
    () => state,
    () => SERVER_SESSION,
  );
}

/** True for the invented users (fallback and emergency): no session, no wallet, no tokens. */
export function isDemoUser(user: StoredSocialUser | null): boolean {
  return user !== null && user.mode !== "account";
}

export function basicLoginRequested(): boolean {
  return new URLSearchParams(window.location.search).get("useBasicLogin") === "true";
}

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function signedIn(provider: SocialProvider, answer: Parameters<typeof accountUser>[1]) {
  const user = accountUser(provider, answer);
  try {
    writeStoredSocialUser(user);
  } catch (error) {
    console.warn("The social-login user could not be stored", error);
  }
  update({ user, waitingFor: null });
  // The browser now has a session: everything cached belonged to the visitor before.
  void queryClient.invalidateQueries();
}

/**
 * Spec section 8: a social-login call that got no answer (network, server error) makes up the demo user; a
 * further failure writes the emergency user and asks for a reload. A 4xx is an answer: "Login Failed".
 */
function loginFailed(provider: SocialProvider, error: unknown) {
  update({ waitingFor: null });
  if (leaving) return;
  if (isApiError(error) && error.status < 500) {
    const words = authWords();
    toast({
      title: words.socialFailed,
      description: words.socialFailedText(provider, error),
      variant: "destructive",
    });
    return;
  }
  console.warn("Social login failed", error);
  if (state.user === null || state.user.mode === "account") {
    try {
      const user = fallbackUser(provider);
      writeStoredSocialUser(user);
      update({ user });
      toast({ title: authWords().socialFallback, description: authWords().socialFallbackText });
      return;
    } catch (fallbackError) {
      console.warn("The fallback user could not be made", fallbackError);
    }
  }
  const user = emergencyUser(provider);
  try {
    writeStoredSocialUser(user);
  } catch {
    // Kept in this page only.
  }
  update({ user });
  toast({ title: authWords().socialFailed, description: authWords().socialReload, variant: "destructive" });
}

function requestBody(redirectUrl: string, enableRealLogin: boolean) {
  return { redirectUrl, enableWeb3Auth: web3AuthEnabled(), enableRealLogin };
}

/** Real login (the default): remembered before the browser leaves for the provider. */
export function markRealLoginPending(provider: SocialProvider) {
  sessionStore()?.setItem(PENDING_REAL_LOGIN_KEY, provider);
}

/**
 * At start: when the browser comes back from a real login, ask the server who signed in, keep the user and
 * reload the page 0.5 s later (spec section 4), so every part of it starts with the new session.
 */
export async function resumeRealLogin() {
  const store = sessionStore();
  const provider = socialStateAtStart().pendingLogin as SocialProvider | null;
  if (!provider || !(provider in SOCIAL_PROVIDER_NAMES)) return;
  if (store?.getItem(PENDING_REAL_LOGIN_KEY) === provider) store.removeItem(PENDING_REAL_LOGIN_KEY);
  // The sign-in came back refused: its page says why (social-return.ts); there is nobody to ask the server about.
  if (socialStateAtStart().refusedReturn) return;
  try {
    signedIn(provider, await postSocialAuth(provider, requestBody(window.location.href, true)));
    update({ reloading: true });
    setTimeout(() => window.location.reload(), RELOAD_AFTER_LOGIN_MS);
  } catch (error) {
    // Asked at start, beside the page's own chunk and words: the toast waits for the page's words (English only
    // for a page that has none).
    await pageWordsHanded(PAGE_WORDS_WAIT_MS);
    loginFailed(provider, error);
  }
}

/**
 * Basic login (`useBasicLogin=true`): a window runs the provider flow and comes back to a completion page that
 * tells this one (over a BroadcastChannel: a real provider's pages cut the opener link); then this page asks the
 * server for the user. The window is opened at the click, before any request, so no pop-up blocker stops it.
 */
export async function startBasicLogin(provider: SocialProvider) {
  const popup = window.open("about:blank", "cpxtb-social-login", "popup,width=520,height=700");
  if (!popup) {
    toast({
      title: authWords().socialFailed,
      description: authWords().socialPopupBlocked,
      variant: "destructive",
    });
    return;
  }
  update({ waitingFor: provider });
  const completion = socialPopupCompletionUrl(provider);
  try {
    signedIn(provider, await postSocialAuth(provider, requestBody(completion, false)));
    popup.close();
    return;
  } catch (error) {
    const url = (error as { body?: { error?: { details?: { url?: unknown } } } }).body?.error?.details?.url;
    if (!isApiError(error) || error.status !== 401 || typeof url !== "string" || !url.startsWith("/")) {
      popup.close();
      loginFailed(provider, error);
      return;
    }
    popup.location.href = url;
  }
  await waitForCompletion(provider);
  if (state.waitingFor !== provider) return;
  try {
    signedIn(provider, await postSocialAuth(provider, requestBody(completion, false)));
  } catch (error) {
    loginFailed(provider, error);
  }
}

let completionChannel: BroadcastChannel | null = null;

function waitForCompletion(provider: SocialProvider): Promise<void> {
  completionChannel?.close();
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(SOCIAL_POPUP_CHANNEL);
    completionChannel = channel;
    channel.onmessage = (event: MessageEvent<{ provider?: unknown }>) => {
      if (event.data?.provider !== provider) return;
      channel.close();
      resolve();
    };
  });
}

/** Stops waiting for the sign-in window (its own close cannot be seen once a provider cut the opener link). */
export function cancelBasicLogin() {
  completionChannel?.close();
  completionChannel = null;
  update({ waitingFor: null });
}

/** The session ended elsewhere (the menu's sign-out): an account record goes with it; a demo is not a session. */
export function forgetSocialAccount() {
  if (state.user?.mode !== "account") return;
  clearStoredSocialUser();
  update({ user: null, reloading: false });
}

/**
 * Spec sections 4 and 8: logout clears the user, address, balance and the stored record even when the call
 * fails; a failure is told with "Logout Failed".
 */
export async function logoutSocial() {
  let failed: unknown = null;
  try {
    await apiRequest("POST", "/api/social-auth/logout");
  } catch (error) {
    failed = error;
  }
  clearStoredSocialUser();
  update({ user: null, waitingFor: null });
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_QUERY_KEY[0] });
  queryClient.setQueryData(USER_QUERY_KEY, null);
  if (failed) {
    console.warn("Social logout failed", failed);
    toast({
      title: authWords().socialSignOutFailed,
      description: authWords().socialSignOutFailedText,
      variant: "destructive",
    });
  } else {
    toast({ title: authWords().signedOut, description: authWords().signedOutText });
  }
}
