import * as React from "react";
import { errorText } from "@/lib/error-text";

/**
 * The words of the auth provider's toasts (signed in, registered, signed out, and a failure's reason). The provider
 * is in the data layer every page loads, the shell's `/` too, so it cannot bring the message runtime (decision
 * 038): it says these words in English unless a translated page (the sign-in and account screens) hands it its
 * reader's while it is shown.
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
};

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
};

let current: AuthWords = ENGLISH;

/** The words the provider says now. */
export function authWords(): AuthWords {
  return current;
}

/** A translated page's words for the provider's toasts while it is shown (English again once it goes). */
export function useAuthWords(words: AuthWords): void {
  React.useEffect(() => {
    current = words;
    return () => {
      if (current === words) current = ENGLISH;
    };
  }, [words]);
}
