import type { SocialProvider } from "@common/social";

/** The basic login's window and the page that opened it talk over this channel (same origin only). */
export const SOCIAL_POPUP_CHANNEL = "cpxtb-social-login";
const COMPLETE_PARAM = "socialLoginComplete";

/** Where the provider flow of the basic login comes back to: this site, marked as the end of the flow. */
export function socialPopupCompletionUrl(provider: SocialProvider): string {
  return `${window.location.origin}/auth?${COMPLETE_PARAM}=${provider}`;
}

/**
 * Runs before the app in every page: in the basic login's window, back from the provider, it tells the opening
 * page and closes, without starting the app. Returns true when it did (the caller then renders nothing).
 * The message only says "look again": the opening page asks the server who signed in, so a forged one is harmless.
 */
export function finishSocialPopup(): boolean {
  const provider = new URLSearchParams(window.location.search).get(COMPLETE_PARAM);
  if (!provider || !/^[a-z]{1,20}$/.test(provider) || typeof BroadcastChannel === "undefined") return false;
  const channel = new BroadcastChannel(SOCIAL_POPUP_CHANNEL);
  channel.postMessage({ provider });
  channel.close();
  window.close();
  // Still open (not opened by a script): say what happened.
  document.title = "Sign-in finished";
  const text = document.createElement("p");
  text.textContent = "Sign-in finished. You can close this window.";
  text.style.cssText = "font: 16px system-ui, sans-serif; padding: 24px;";
  document.getElementById("root")?.replaceChildren(text);
  return true;
}
