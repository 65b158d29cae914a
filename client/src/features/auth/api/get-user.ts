import type { User } from "@common/auth.ts";
import { queryOptions } from "@tanstack/react-query";
import { getQueryFn } from "@/lib/api-client";

export type SessionUser = User;

export const USER_QUERY_KEY = ["/api/user"] as const;

export function getUserQueryOptions() {
  return queryOptions({
    queryKey: USER_QUERY_KEY,
    queryFn: getQueryFn<SessionUser | null>({ on401: "returnNull" }),
  });
}
