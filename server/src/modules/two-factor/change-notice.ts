import type { Locale } from "@common/locales.ts";
import type { FastifyRequest } from "fastify";
import { emailTime, timeLocaleOf } from "../../lib/email-html.ts";
import { recipientLocale, translator } from "../../lib/i18n.ts";
import { type Mail, type Mailer, textMail } from "../../lib/mailer.ts";
import type { Auth } from "../auth/session.ts";

/** What changed, each a whole sentence (a passkey's with its name), so every language can order it its own way. */
const NOTICES = {
  totp_enabled: "email.security.totpEnabled",
  totp_disabled: "email.security.totpDisabled",
  passkey_added: "email.security.passkeyAdded",
  passkey_removed: "email.security.passkeyRemoved",
  recovery_codes: "email.security.recoveryCodes",
} as const;

export type FactorChange = keyof typeof NOTICES;

/** The notice that the second factors of the account `username` changed at `at`, in its reader's language. */
export function factorChangeEmail(
  to: string,
  language: Locale,
  input: {
    change: FactorChange;
    username: string;
    name?: string;
    at: Date;
    reader: { timeZone: string | null; locale: string | null };
    profileUrl: string;
  },
): Mail {
  const t = translator(language);
  const when = emailTime(input.at, {
    timeZone: input.reader.timeZone,
    locale: timeLocaleOf(input.reader.locale, language),
  });
  return textMail(to, language, t("email.security.subject"), [
    t(NOTICES[input.change], { username: input.username, name: input.name ?? "", when }),
    t("email.security.ifYou"),
    t("email.security.ifNotYou"),
    input.profileUrl,
  ]);
}

/**
 * Emails the account's verified address that its second factors changed (not awaited: the change is made and
 * answered whatever the mail server does). The owner learns of a factor a thief added or removed.
 */
export function notifyFactorChange(
  deps: { mailer: Mailer; config: { publicUrl: string } },
  request: FastifyRequest,
  auth: Auth,
  change: FactorChange,
  name?: string,
) {
  const to = auth.user.email;
  if (!to) return;
  const mail = factorChangeEmail(to, recipientLocale(auth.user.locale, request), {
    change,
    username: auth.user.username,
    name,
    at: new Date(),
    reader: auth.user,
    profileUrl: `${deps.config.publicUrl}/profile#two-factor`,
  });
  void deps.mailer
    .send(mail)
    .catch((error) => request.log.error({ err: error }, "could not send the two-factor change email"));
}
