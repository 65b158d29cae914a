import type { Locale } from "@common/locales.ts";
import { translator } from "../../lib/i18n.ts";
import { type Mail, textMail } from "../../lib/mailer.ts";

const HOUR_MS = 60 * 60 * 1000;

/** Asks the owner of `to` to confirm it belongs to their account (the link works for `ttlMs`). */
export function verificationEmail(to: string, language: Locale, link: string, ttlMs: number): Mail {
  const t = translator(language);
  return textMail(to, language, t("email.verify.subject"), [
    t("email.verify.body", { hours: ttlMs / HOUR_MS }),
    link,
    t("email.verify.ignore"),
  ]);
}

/** The link that sets a new password for the account `username` (once, within `ttlMs`). */
export function passwordResetEmail(
  to: string,
  language: Locale,
  input: { username: string; link: string; ttlMs: number },
): Mail {
  const t = translator(language);
  return textMail(to, language, t("email.reset.subject"), [
    t("email.reset.intro", { username: input.username }),
    t("email.reset.action", { hours: input.ttlMs / HOUR_MS }),
    input.link,
    t("email.reset.ignore"),
  ]);
}
