import * as z from "zod";
import "./zod-messages.ts";

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

export const username = z
  .string({ error: "Username is required." })
  .trim()
  .min(3, "Username must be at least 3 characters.")
  .max(32, "Username must be at most 32 characters.")
  .regex(USERNAME_PATTERN, "Username may contain only letters, digits, '_', '.' and '-'.");

export const email = z
  .string({ error: "Email is required." })
  .trim()
  .max(254, "Email is too long.")
  .pipe(z.email("Enter a valid email address."));

export const newPassword = z
  .string({ error: "Password is required." })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`);

/** Sign-in takes the username or the verified email in one field. */
/** Whether `zone` is an IANA time zone this runtime knows ("Europe/Paris"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Whether `tag` is a well-formed language tag ("en-GB"). */
export function isLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/**
 * Where the person reads: the browser's time zone and language, sent with registration and sign-in so emails show
 * times as the recipient reads them. Something unusable is dropped, never a reason to refuse a sign-in.
 */
export const readerPlace = {
  timeZone: z.string().max(64).refine(isTimeZone).optional().catch(undefined),
  locale: z.string().max(35).refine(isLocale).optional().catch(undefined),
};

export const loginRequest = z.object({
  ...readerPlace,
  username: z.string({ error: "Username is required." }).trim().min(1, "Username is required.").max(254),
  password: z
    .string({ error: "Password is required." })
    .min(1, "Password is required.")
    .max(PASSWORD_MAX_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const registerRequest = z.object({
  ...readerPlace,
  username,
  password: newPassword,
  email: z.union([email, z.literal("").transform(() => undefined)]).optional(),
});
export type RegisterRequest = z.input<typeof registerRequest>;

export const themePreference = z.enum(["light", "dark", "system"]);

export const userResponse = z.object({
  id: z.string(),
  username: z.string(),
  /** The name to greet with: a social sign-in's profile name ("Bea Santos"); null when there is none. */
  displayName: z.string().nullable(),
  email: z.string().nullable(),
  pendingEmail: z.string().nullable(),
  hasPassword: z.boolean(),
  preferences: z.object({ theme: themePreference, notifyPaymentEmails: z.boolean() }),
  createdAt: z.string(),
});
export type User = z.infer<typeof userResponse>;

export const forgotPasswordRequest = z.object({ email });
export const resetPasswordRequest = z.object({
  token: z.string().min(10).max(200),
  password: newPassword,
});
export const resetTokenCheckRequest = z.object({ token: z.string().min(10).max(200) });
export const resetTokenCheckResponse = z.object({
  valid: z.boolean(),
  reason: z.enum(["expired", "used", "unknown"]).optional(),
});

export const changeUsernameRequest = z.object({ username });
export const changeEmailRequest = z.object({ email });
export const changePasswordRequest = z.object({
  /** Required when the account has a password; accounts made by wallet or social sign-in may set a first one. */
  currentPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  newPassword,
});
export const preferencesRequest = z
  .object({ theme: themePreference.optional(), notifyPaymentEmails: z.boolean().optional(), ...readerPlace })
  .refine((v) => Object.values(v).some((value) => value !== undefined), "Nothing to change.");

export const sessionInfo = z.object({
  id: z.string(),
  device: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export const sessionsResponse = z.object({ sessions: z.array(sessionInfo) });
export type SessionInfo = z.infer<typeof sessionInfo>;

export const okResponse = z.object({ ok: z.literal(true), message: z.string().optional() });
