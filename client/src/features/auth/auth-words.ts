import type { SocialProvider } from "@common/social";
import * as React from "react";
import { errorText } from "@/lib/error-text";

/**
 * The words of the auth provider's toasts (signed in, registered, signed out, and a failure's reason), and of the
 * social sign-in session's (features/social/social-session.ts: a failed social sign-in, the demo user, a blocked
 * sign-in window, a failed sign-out). The provider is in the data layer every page loads, the shell's `/` too, so
 * it cannot bring the message runtime (decision 038): it says these words in English unless a translated page
 * (the sign-in and account screens, /social-login-test; the social session's alone on a checkout and /buy-cpxtb:
 * features/social/sign-in-words.ts; both from `socialSessionWords`) hands it its reader's while it is shown.
 */
export type AuthWords = {
  signedIn: string;
  signedInText: string;
  signInFailed: string;
  registered: string;
  registeredText: string;
  registerFailed: string;
  signedOut: string;
  signedOutText: string;
  /** A failed sign-in or registration, in words. */
  describe: (error: unknown) => string;
  /** The social session's: a refused social sign-in, and the demo user made up when sign-in does not answer. */
  socialFailed: string;
  /** A refused social sign-in, in words (English: the server's sentence). */
  socialFailedText: (provider: SocialProvider, error: unknown) => string;
  socialFallback: string;
  socialFallbackText: string;
  /** A further failure (the emergency user). */
  socialReload: string;
  socialPopupBlocked: string;
  socialSignOutFailed: string;
  socialSignOutFailedText: string;
};

/** The sign-out toast's words, which the site menu gives with its sign-out (the shell's language). */
export type SignedOutWords = Pick<AuthWords, "signedOut" | "signedOutText">;

const ENGLISH: AuthWords = {
  signedIn: "Login successful",
  signedInText: "You are now logged in",
  signInFailed: "Login failed",
  registered: "Registration successful",
  registeredText: "Your account has been created and you are now logged in",
  registerFailed: "Registration failed",
  signedOut: "Logout successful",
  signedOutText: "You have been logged out",
  describe: errorText,
  socialFailed: "Login Failed",
  socialFailedText: (_provider, error) => errorText(error),
  socialFallback: "Login Successful (Fallback Mode)",
  socialFallbackText:
    "Sign-in is not answering: this is a demo user. It cannot pay, buy or open the dashboard.",
  socialReload: "Please reload the page.",
  socialPopupBlocked: "The sign-in window was blocked. Allow pop-ups for this site and try again.",
  socialSignOutFailed: "Logout Failed",
  socialSignOutFailedText: "The server did not answer; you are signed out on this device.",
};

let current: AuthWords = ENGLISH;

let handedWords: (() => void) | undefined;
const firstHanded = new Promise<void>((resolve) => {
  handedWords = resolve;
});

/**
 * Resolves once a page has handed its words, or after `ms` (a page that has none says English). For a toast of
 * something that happened at start (a social sign-in refused on the way back, social-session.ts), before the
 * page's chunk and catalog may have come: it waits for them instead of saying it in English (issue 37).
 */
export function pageWordsHanded(ms: number): Promise<void> {
  return Promise.race([firstHanded, new Promise<void>((resolve) => setTimeout(resolve, ms))]);
}

/** The words the provider says now. */
export function authWords(): AuthWords {
  return current;
}

/**
 * A translated page's words for the provider's toasts while it is shown (English again once it goes). A page that
 * shows only the social session (a checkout, /buy-cpxtb) hands just those; the rest stay English there.
 */
export function useAuthWords(words: Partial<AuthWords>): void {
  React.useEffect(() => {
    const said = { ...ENGLISH, ...words };
    current = said;
    handedWords?.();
    return () => {
      if (current === said) current = ENGLISH;
    };
  }, [words]);
}
