import * as z from "zod";
import "./zod-messages.ts";
import { userResponse } from "./auth.ts";

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/**
 * How long after a sign-in a session may change its second factors (add or remove one, regenerate codes) without
 * proving again that it is the owner.
 */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

export const secondFactorMethod = z.enum(["totp", "recovery", "passkey"]);
export type SecondFactorMethod = z.infer<typeof secondFactorMethod>;

/** The first factor was right; the session starts once a second factor is given (within a few minutes). */
export const twoFactorRequiredResponse = z.object({
  twoFactorRequired: z.literal(true),
  methods: z.array(secondFactorMethod),
  expiresAt: z.string(),
});
export type TwoFactorRequired = z.infer<typeof twoFactorRequiredResponse>;

/** What a sign-in answers: the user (session started) or the second-factor step. */
export const signInResponse = z.union([userResponse, twoFactorRequiredResponse]);
export type SignInResult = z.infer<typeof signInResponse>;

/** A 6-digit authenticator code or a recovery code (`xxxxx-xxxxx`); spaces and dashes are ignored. */
export const oneTimeCode = z
  .string({ error: "Enter the code." })
  .trim()
  .min(6, "Enter the 6-digit code from your app, or a recovery code.")
  .max(32, "That code is too long.");

export const secondFactorRequest = z.object({ code: oneTimeCode });

export const twoFactorStatusResponse = z.object({
  totpEnabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  passkeys: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      createdAt: z.string(),
      lastUsedAt: z.string().nullable(),
    }),
  ),
  /** The session started recently enough to change 2FA without entering a code or the password. */
  recentSignIn: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusResponse>;

export const totpEnrolmentResponse = z.object({
  /** Base32, for typing into an app by hand. */
  secret: z.string(),
  /** otpauth:// URI, shown as a QR code. */
  uri: z.string(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentResponse>;

export const confirmTotpRequest = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code."),
});

export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });

/** Changes that weaken sign-in: a recent sign-in, or a current code from the app (or a recovery code). */
export const reauthRequest = z.object({ code: oneTimeCode.optional() });

/**
 * Adding a second factor (set-up of the app, a passkey's options): a recent sign-in, or the account's password,
 * or a current code of a factor it already has. Without it, a session left open could add the thief's factor.
 */
export const addFactorRequest = z.object({
  code: oneTimeCode.optional(),
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(200).optional(),
});
export type AddFactorProof = z.infer<typeof addFactorRequest>;

/** `error.details.reason` of a 403 that asks the user to prove again it is them; `accepts` says with what. */
export const REAUTH_REQUIRED = "REAUTH_REQUIRED";
export type ReauthAccepts = Array<"password" | "code">;

export const requireTwoFactorRequest = z.object({ requireTwoFactor: z.boolean() });
export const requireTwoFactorResponse = z.object({ requireTwoFactor: z.boolean() });

export const passkeyIdParams = z.object({ id: z.string().regex(/^pky_[0-9a-z]{26}$/, "unknown passkey") });
export const passkeyNameRequest = z.object({
  name: z.string().trim().min(1, "Name the passkey.").max(60, "At most 60 characters.").optional(),
});

/** WebAuthn JSON as @simplewebauthn/browser produces it; the server library checks every field. */
const webauthnJson = z.looseObject({
  id: z.string().max(1024),
  rawId: z.string().max(1024),
  type: z.literal("public-key"),
  response: z.looseObject({}),
});
export const passkeyRegistrationRequest = z.object({
  credential: webauthnJson,
  name: z.string().trim().min(1).max(60).optional(),
});
export const passkeyAssertionRequest = z.object({ credential: webauthnJson });
/** Options JSON for navigator.credentials (opaque to the schema). */
export const webauthnOptionsResponse = z.looseObject({ challenge: z.string() });
