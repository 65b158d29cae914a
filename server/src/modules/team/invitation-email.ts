import type { Locale } from "@common/locales.ts";
import { INVITATION_TTL_DAYS, type InvitableRole } from "@common/team.ts";
import { translator } from "../../lib/i18n.ts";
import { type Mail, textMail } from "../../lib/mailer.ts";

/** The invitation to join `business` in `role`: its link is the only way in (once, within the invitation's days). */
export function invitationEmail(
  to: string,
  language: Locale,
  input: { business: string; role: InvitableRole; link: string },
): Mail {
  const t = translator(language);
  return textMail(to, language, t("email.invite.subject", { business: input.business }), [
    t("email.invite.intro", { business: input.business, role: input.role }),
    t("email.invite.action", { days: INVITATION_TTL_DAYS }),
    input.link,
    t("email.invite.ignore"),
  ]);
}
