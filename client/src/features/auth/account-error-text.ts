import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@common/auth.ts";
import { SOCIAL_PROVIDER_NAMES, SOCIAL_PROVIDERS, type SocialProvider } from "@common/social-values";
import { apiErrorText, detailOf, errorBodyOf } from "@/features/payments/pay-error-text";
import { walletFailureText } from "@/features/payments/transfer-error-text";
import { t } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-error";
import type { FieldErrors } from "@/lib/form-errors";

/**
 * The sentences the account screens meet, by their exact English wording: the server's (server/src/modules/auth,
 * two-factor, siwe: UNAUTHENTICATED, CONFLICT, FORBIDDEN and GONE each carry several meanings, and the sentence
 * tells them apart), the forms' own checks (common/src/auth.ts, two-factor.ts: the same schemas the server
 * validates with). A sentence not listed here is shown as it was written, in English. The wallet's refusals
 * (features/wallet/siwe-signer.ts) are read by their kind (`walletFailureText`).
 */
const KNOWN_MESSAGES: Record<string, string> = {
  // The forms' checks.
  "This field is required.": "account.error.required",
  "Username is required.": "account.error.usernameRequired",
  "Username must be at least 3 characters.": "account.error.usernameShort",
  "Username must be at most 32 characters.": "account.error.usernameLong",
  "Username may contain only letters, digits, '_', '.' and '-'.": "account.error.usernameChars",
  "Email is required.": "account.error.emailRequired",
  "Email is too long.": "account.error.emailLong",
  "Enter a valid email address.": "account.error.emailInvalid",
  "Password is required.": "account.error.passwordRequired",
  [`Password must be at least ${PASSWORD_MIN_LENGTH} characters.`]: "account.error.passwordShort",
  [`Password must be at most ${PASSWORD_MAX_LENGTH} characters.`]: "account.error.passwordLong",
  "Enter the code.": "account.error.codeRequired",
  "Enter the 6-digit code from your app, or a recovery code.": "account.error.codeShort",
  "That code is too long.": "account.error.codeLong",
  "Enter the 6-digit code.": "account.error.codeSixDigits",
  "Enter your password.": "account.error.enterPassword",
  "Name the passkey.": "account.error.passkeyName",
  "At most 60 characters.": "account.error.passkeyNameLong",
  // Sign-in, registration, passwords and sessions.
  "Incorrect username or password.": "account.error.wrongCredentials",
  "That username is already taken. Choose another one.": "account.error.usernameTaken",
  "This password is too common. Choose one that is harder to guess.": "account.error.passwordCommon",
  "This password repeats a single character. Choose a stronger one.": "account.error.passwordRepeats",
  "The password must not contain the username.": "account.error.passwordHasUsername",
  "The current password is not correct.": "account.error.currentPasswordWrong",
  "No such session.": "account.error.noSession",
  "This reset link is not valid. Ask for a new one.": "account.error.resetUnknown",
  "This reset link has already been used. Ask for a new one.": "account.error.resetUsed",
  "This reset link has expired (links work for one hour). Ask for a new one.": "account.error.resetExpired",
  // Two-factor sign-in and passkeys.
  "There is no sign-in waiting for a code.": "account.error.noPendingSignIn",
  "This sign-in has expired (5 minutes). Please sign in again.": "account.error.signInExpired",
  "This sign-in has expired. Please sign in again.": "account.error.signInExpiredShort",
  "Too many wrong codes. Please sign in again.": "account.error.tooManyCodes",
  "That code is not correct. Check your authenticator app and try again.": "account.error.codeWrongApp",
  "The authenticator app is already set up. Turn it off first to set up another.":
    "account.error.appAlreadySetUp",
  "The authenticator app is already set up.": "account.error.appAlreadySetUp",
  "Start the set-up first.": "account.error.startSetUpFirst",
  "This set-up has expired (15 minutes). Start it again.": "account.error.setUpExpired",
  "That code is not correct. Check the time on your phone and try again.": "account.error.codeWrongTime",
  "That code was already used. Wait for the next one.": "account.error.codeUsed",
  "For your security, enter a current code from your authenticator app (or a recovery code), or sign in again.":
    "account.error.reauthWeaken",
  "For your security, enter your password (or a current code from your authenticator app or a recovery code) to add a second factor, or sign in again.":
    "account.error.reauthPasswordOrCode",
  "For your security, enter your password to add a second factor, or sign in again.":
    "account.error.reauthPassword",
  "For your security, enter a current code from your authenticator app (or a recovery code) to add a second factor, or sign in again.":
    "account.error.reauthCode",
  "For your security, sign out and sign in again (your last sign-in was more than 10 minutes ago) to add a second factor.":
    "account.error.reauthSignIn",
  "Too many wrong codes. Sign in again to continue.": "account.error.reauthTooMany",
  "Too many wrong codes or passwords. Sign out and sign in again to change your second factors.":
    "account.error.reauthTooManyAll",
  "That password is not correct.": "account.error.passwordWrong",
  "That code is not correct.": "account.error.codeWrong",
  "Your business requires two-factor sign-in. Turn that requirement off first, or keep another method.":
    "account.error.businessRequires",
  "The authenticator app is not set up.": "account.error.appNotSetUp",
  "Turn on two-factor sign-in first.": "account.error.turnOnFirst",
  "Turn on two-factor sign-in for your own account first.": "account.error.turnOnOwnFirst",
  "Only the owner of this business can change this setting.": "account.error.ownerOnly",
  "An account can have at most 20 passkeys.": "account.error.tooManyPasskeys",
  "The passkey request expired. Please try again.": "account.error.passkeyExpired",
  "The passkey could not be verified.": "account.error.passkeyUnverifiedShort",
  "This passkey could not be verified. Please try again.": "account.error.passkeyUnverified",
  "This passkey is already registered.": "account.error.passkeyTaken",
  "No such passkey.": "account.error.passkeyNotFound",
  // Sign-In with Ethereum and linked wallets.
  "This is not a complete Sign-In with Ethereum (EIP-4361) message.": "account.error.siweIncomplete",
  "This Sign-In with Ethereum message is not valid.": "account.error.siweInvalid",
  "The message's issue time is in the future. Check your device's clock.": "account.error.siweFuture",
  "This sign-in message has expired. Sign a new one.": "account.error.siweExpired",
  "This sign-in message is not valid yet.": "account.error.siweNotYet",
  "This sign-in message was already used or has expired. Sign a new one.": "account.error.siweUsed",
  "The signature does not match the wallet address in the message.": "account.error.siweMismatch",
  "Could not reach the blockchain to check the wallet's signature.": "account.error.siweChain",
  "Could not create an account for this wallet. Please try again.": "account.error.siweCreate",
  "This wallet is already linked to another account.": "account.error.walletTaken",
  "This wallet is not linked to your account.": "account.error.walletNotLinked",
  "This wallet is how you sign in. Set a password or link another wallet before removing it.":
    "account.error.walletLast",
};

const VALUES = { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH };

/**
 * The social accounts' refusals that name their provider (server/src/modules/social-auth/service.ts `unlink`),
 * by `details.reason`, the provider's own name in the sentence; else undefined.
 */
function socialAccountText(details: Record<string, unknown> | undefined): string | undefined {
  const key = detailOf(details, "provider");
  if (!SOCIAL_PROVIDERS.includes(key as SocialProvider)) return undefined;
  const provider = SOCIAL_PROVIDER_NAMES[key as SocialProvider];
  if (details?.reason === "not_linked") return t("account.social.error.notLinked", { provider });
  if (details?.reason === "last_way_in") return t("account.social.error.lastWayIn", { provider });
  return undefined;
}

/**
 * A sign-in held back after many failures (server/src/modules/auth/service.ts `admitSignIn`): a 429 with the
 * seconds to wait in `details`, said with them (before the general "too many attempts"); else undefined.
 */
function throttledText(error: unknown): string | undefined {
  if (!isApiError(error)) return undefined;
  const { details } = errorBodyOf(error.body);
  if (details?.reason !== "sign_in_throttled") return undefined;
  const seconds = Number(detailOf(details, "retryAfterSeconds"));
  return Number.isInteger(seconds) && seconds > 0
    ? t("account.error.signInThrottled", { seconds })
    : undefined;
}

/** A known sentence in the reader's language, else undefined. */
function knownSentence(sentence: string): string | undefined {
  const id = KNOWN_MESSAGES[sentence.trim()];
  return id ? t(id, VALUES) : undefined;
}

/**
 * A failed request on the account screens in the reader's language (issue 37): the shared reading of
 * `apiErrorText` with these screens' sentences; a validation answer names its field first ("username: …"); a
 * browser's own refusal (the wallet, a cancelled passkey prompt) in these screens' words too. `signingIn`: the
 * screen is a sign-in (a 401 is the attempt refused, not a session that ended).
 */
export function accountErrorText(error: unknown, { signingIn = false } = {}): string {
  // The browser wallet's refusal or failure (Sign-In with Ethereum, linking a wallet), by its kind.
  const wallet = walletFailureText(error, { noWallet: "account.error.noWallet" });
  if (wallet) return wallet;
  if (!isApiError(error) && error instanceof Error) {
    const known = knownSentence(error.message);
    if (known) return known;
    // WebAuthn: the person closed the prompt, or it timed out.
    if (error.name === "NotAllowedError" || error.name === "AbortError")
      return t("account.error.passkeyCancelled");
  }
  const throttled = throttledText(error);
  if (throttled) return throttled;
  return apiErrorText(error, {
    sentences: KNOWN_MESSAGES,
    values: VALUES,
    // Signing in, a refusal is about the attempt (its sentence, or the server's), not an ended session.
    ...(signingIn ? {} : { signedOut: "account.error.signedOut" }),
    twoFactor: "account.error.twoFactor",
    forbidden: "account.error.forbidden",
    byCode: ({ code, status, details }) => {
      const social = socialAccountText(details);
      if (social) return social;
      if (code !== "VALIDATION_ERROR" && status !== 400) return undefined;
      const body = isApiError(error) ? (error.body as { error?: { message?: unknown } }) : undefined;
      const message = typeof body?.error?.message === "string" ? body.error.message : "";
      // The passkey's verification failure carries the library's own (English) detail after its sentence.
      if (message.startsWith("The passkey could not be verified: "))
        return t("account.error.passkeyUnverifiedShort");
      return knownSentence(message.replace(/^[\w.]+: /, ""));
    },
  });
}

/**
 * The forms' own checks in the reader's language: the schemas are shared with the server and write English; a
 * sentence not listed stays as written.
 */
export function accountFieldErrors(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, message] of Object.entries(errors)) {
    out[field] = message === undefined ? undefined : (knownSentence(message) ?? message);
  }
  return out;
}
