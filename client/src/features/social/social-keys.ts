/**
 * The social-login keys, in a module of their own so the start-up check costs nothing: the social code loads
 * only when there is a stored user or a real login to finish.
 */
/** Spec section 3: the stored social-login user lives under one fixed local-storage key. */
export const SOCIAL_USER_STORAGE_KEY = "cpxtb_social_user";
/** Session storage: which provider a real login went to, read once when the browser comes back. */
export const PENDING_REAL_LOGIN_KEY = "cpxtb_social_pending_login";

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
