import type { SignInResult } from "@common/two-factor.ts";

/**
 * Runs `then` once a sign-in has made a session (not when it asks for the second factor), from the mutation's
 * promise rather than its per-call callbacks: the form that started the sign-in gives way to the signed-in state
 * as soon as the user is known, and a mutation's per-call callbacks never run for a form that is gone. A failure
 * is the mutation's to show (its toast and the form's message); here it is only swallowed.
 */
export function whenSignedIn(signIn: Promise<SignInResult>, then: () => void): void {
  signIn.then(
    (result) => {
      if (!("twoFactorRequired" in result)) then();
    },
    () => undefined,
  );
}
