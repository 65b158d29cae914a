/**
 * The social-login keys, in a module of their own so the start-up check costs nothing: the social code loads
 * only when there is a stored user or a real login to finish.
 */
/** Spec section 3: the stored social-login user lives under one fixed local-storage key. */
export const SOCIAL_USER_STORAGE_KEY = "cpxtb_social_user";
/** Session storage: which provider a real login went to, read once when the browser comes back. */
export const PENDING_REAL_LOGIN_KEY = "cpxtb_social_pending_login";

type SocialStateAtStart = {
  storedUser: boolean;
  pendingLogin: string | null;
  /** The page was opened by a refused sign-in coming back (`?socialLogin=`, social-return.ts): none to finish. */
  refusedReturn: boolean;
};
let atStart: SocialStateAtStart | undefined;

/**
 * The social-login state the page was opened with: read once, when the app starts (main.tsx), before anything on
 * the page can be clicked. A real login started on this page is finished by the page the provider sends the
 * browser back to, never by this one when its lazy session code happens to mount after the click.
 */
export function socialStateAtStart(): SocialStateAtStart {
  if (!atStart) {
    try {
      atStart = {
        storedUser: window.localStorage.getItem(SOCIAL_USER_STORAGE_KEY) !== null,
        pendingLogin: window.sessionStorage.getItem(PENDING_REAL_LOGIN_KEY),
        // The parameter by name: @common/social would bring zod into the start-up.
        refusedReturn: new URLSearchParams(window.location.search).has("socialLogin"),
      };
    } catch {
      atStart = { storedUser: false, pendingLogin: null, refusedReturn: false };
    }
  }
  return atStart;
}

/** True when there is a stored social user or a real login to finish, now. */
export function hasSocialLoginState(): boolean {
  try {
    return (
      window.localStorage.getItem(SOCIAL_USER_STORAGE_KEY) !== null ||
      window.sessionStorage.getItem(PENDING_REAL_LOGIN_KEY) !== null
    );
  } catch {
    return false;
  }
}
