import { INVITATION_TTL_DAYS } from "@common/team";
import { apiErrorText } from "@/features/payments/pay-error-text";

/**
 * The server's sentences the team screens meet (server/src/modules/team/service.ts), by their exact English
 * wording: NOT_FOUND, GONE and CONFLICT each carry several meanings, and the sentence tells them apart.
 */
const KNOWN_MESSAGES: Record<string, string> = {
  "You no longer manage this business.": "team.error.noLongerManager",
  "No pending invitation has this id.": "team.error.invitationNotPending",
  "This invitation link is not valid. Ask for a new invitation.": "team.error.invitationInvalid",
  // A link cut short when it was copied: refused for its shape before it is looked up (common/team.ts).
  "This invitation link is malformed.": "team.error.invitationInvalid",
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
  return apiErrorText(error, {
    sentences: KNOWN_MESSAGES,
    values: { days: INVITATION_TTL_DAYS },
    signedOut: "team.error.signedOut",
    twoFactor: "team.error.twoFactor",
    forbidden: "team.error.forbidden",
  });
}
