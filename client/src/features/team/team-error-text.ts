import { INVITATION_TTL_DAYS } from "@common/team";
import { errorBodyOf } from "@/features/payments/pay-error-text";
import { t } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-error";
import { errorText } from "@/lib/error-text";

/**
 * The server's sentences the team screens meet (server/src/modules/team/service.ts), by their exact English
 * wording: NOT_FOUND, GONE and CONFLICT each carry several meanings, and the sentence tells them apart.
 */
const KNOWN_MESSAGES: Record<string, string> = {
  "You no longer manage this business.": "team.error.noLongerManager",
  "No pending invitation has this id.": "team.error.invitationNotPending",
  "This invitation link is not valid. Ask for a new invitation.": "team.error.invitationInvalid",
  "This invitation was already used. Ask for a new one.": "team.error.invitationUsed",
  "This invitation was withdrawn. Ask for a new one.": "team.error.invitationWithdrawn",
  "This invitation has expired (they last 7 days). Ask for a new one.": "team.error.invitationExpired",
  "This invitation cannot be used now. Try again.": "team.error.invitationBusy",
  "This invitation was withdrawn: the person who sent it can no longer invite to this business. Ask its owner for a new one.":
    "team.error.inviterGone",
  "You are already a member of this business.": "team.error.alreadyMember",
  "You cannot change your own role.": "team.error.ownRole",
  "No member of your business with this id (the owner's role is changed only by transferring ownership).":
    "team.error.memberNotFound",
  "No member of your business with this id (the owner cannot be removed).": "team.error.memberNotFound",
  "No member of your business with this id.": "team.error.memberNotFound",
  "You already own this business.": "team.error.alreadyOwner",
  "Only the owner can transfer ownership.": "team.error.ownerOnly",
  "That member already owns another business; a person can own one business.": "team.error.ownsAnother",
  "The invitation was saved but its email could not be sent. Revoke it and invite again in a moment.":
    "team.error.emailNotSent",
  "Enter a valid email address.": "team.invite.emailInvalid",
};

/**
 * A failed request on the team, invitation or audit log screens in the reader's language (issue 37): by the
 * server's sentence where a code has several meanings, else by its code or status; the server's own (English)
 * message only for what these screens do not know.
 */
export function teamErrorText(error: unknown): string {
  if (!isApiError(error)) {
    if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message))
      return t("pay.error.network");
    return t("pay.error.generic");
  }
  const { code, message } = errorBodyOf(error.body);
  const known = KNOWN_MESSAGES[message];
  if (known) return t(known, { days: INVITATION_TTL_DAYS });
  if (code === "RATE_LIMITED" || error.status === 429) return t("pay.error.rateLimited");
  if (code === "UNAUTHENTICATED" || error.status === 401) return t("team.error.signedOut");
  if (code === "TWO_FACTOR_REQUIRED") return t("team.error.twoFactor");
  if (code === "FORBIDDEN" || error.status === 403) return t("team.error.forbidden");
  if (error.status === 408) return t("pay.error.timeout");
  if (error.status >= 500) return t("pay.error.server");
  return message || errorText(error);
}
