import type { InvitationPreview } from "@common/team";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";

const invitationKey = (token: string) => ["/api/invitations", token] as const;

/** GET /api/invitations/:token: the business and role an invitation offers (public, rate limited). */
export async function getInvitation(token: string): Promise<InvitationPreview> {
  return (await (
    await apiRequest("GET", `/api/invitations/${encodeURIComponent(token)}`)
  ).json()) as InvitationPreview;
}

export const invitationQueryOptions = (token: string) =>
  queryOptions({ queryKey: invitationKey(token), queryFn: () => getInvitation(token) });
export const useInvitation = (token: string) => useQuery(invitationQueryOptions(token));

export type AcceptedInvitation = { merchantId: string; businessName: string; role: string };

/** POST /api/invitations/:token/accept with the signed-in account; the business becomes the one it acts for. */
export function useAcceptInvitation(token: string) {
  return useMutation({
    mutationFn: async () =>
      (await (
        await apiRequest("POST", `/api/invitations/${encodeURIComponent(token)}/accept`)
      ).json()) as AcceptedInvitation,
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (q) => String(q.queryKey[0]).startsWith("/api/merchant") });
    },
  });
}
