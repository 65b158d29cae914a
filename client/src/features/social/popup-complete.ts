import type { SocialProvider } from "@common/social";

/**
 * The basic login's window and the page that opened it talk over this channel (same origin only); the window's
 * script (client/public/social-complete.js) names it too.
 */
export const SOCIAL_POPUP_CHANNEL = "cpxtb-social-login";

/**
 * Where the provider flow of the basic login comes back to: a page the server writes in its reader's language
 * (server/src/modules/social-auth/popup-complete-page.ts), whose script tells this page and closes the window. It
 * is not the app: the app's entry carries neither its words nor its code.
 */
export function socialPopupCompletionUrl(provider: SocialProvider): string {
  return `${window.location.origin}/auth/social-complete?provider=${provider}`;
}
