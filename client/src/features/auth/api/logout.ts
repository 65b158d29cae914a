import { apiRequest } from "@/lib/api-client";

/**
 * Spec sections 4 and 8: the session logout is tried first, then the social one; a failure of both is logged
 * and treated as success, because the user asked to be signed out and the client forgets the session anyway.
 */
export async function logout(): Promise<void> {
  try {
    await apiRequest("POST", "/api/logout");
  } catch (sessionError) {
    try {
      await apiRequest("POST", "/api/social-auth/logout");
    } catch (socialError) {
      console.error("Logout failed", sessionError, socialError);
    }
  }
}
