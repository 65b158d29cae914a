import type { SessionInfo } from "@common/auth.ts";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest, getQueryFn } from "@/lib/api-client";
import { readerPlace } from "@/lib/reader-place";
import type { SessionUser } from "./get-user";

// The profile's writes: each answers the updated user (or ok), and callers refresh the user query.

export async function changeUsername(username: string): Promise<SessionUser> {
  return (await apiRequest("PATCH", "/api/user/username", { username })).json();
}

export async function changeEmail(email: string): Promise<SessionUser> {
  return (await apiRequest("POST", "/api/user/email", { email })).json();
}

export async function changePassword(input: { currentPassword?: string; newPassword: string }) {
  return (await apiRequest("POST", "/api/user/password", input)).json() as Promise<{
    ok: true;
    message?: string;
  }>;
}

/** Saves preferences; the browser's zone and language go along (emails show times in them). */
export async function updatePreferences(input: {
  theme?: "light" | "dark" | "system";
  notifyPaymentEmails?: boolean;
}): Promise<SessionUser> {
  return (await apiRequest("PATCH", "/api/user/preferences", { ...readerPlace(), ...input })).json();
}

/** Tells the server the browser's zone and language (a profile visit): the next emails show times in them. */
export async function reportReaderPlace(): Promise<void> {
  const place = readerPlace();
  if (place.timeZone || place.locale) await apiRequest("PATCH", "/api/user/preferences", place);
}

export const SESSIONS_QUERY_KEY = ["/api/user/sessions"] as const;

export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: SESSIONS_QUERY_KEY,
    queryFn: getQueryFn<{ sessions: SessionInfo[] }>({ on401: "throw" }),
  });
}

export async function revokeSession(id: string): Promise<void> {
  await apiRequest("DELETE", `/api/user/sessions/${encodeURIComponent(id)}`);
}

export async function signOutEverywhere(): Promise<void> {
  await apiRequest("DELETE", "/api/user/sessions");
}
