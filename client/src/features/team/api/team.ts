import type { InvitableRole, Invitation, InviteMemberRequest, Team } from "@common/team";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";

export const teamQueryKey = ["/api/merchant/team"] as const;

/** GET /api/merchant/team: members, pending invitations, and the viewer's role (owners and admins only). */
export async function getTeam(): Promise<Team> {
  return (await (await apiRequest("GET", "/api/merchant/team")).json()) as Team;
}

export const teamQueryOptions = () => queryOptions({ queryKey: teamQueryKey, queryFn: getTeam });
export const useTeam = () => useQuery(teamQueryOptions());

const refreshTeam = () => queryClient.invalidateQueries({ queryKey: teamQueryKey });

export function useInviteMember() {
  return useMutation({
    mutationFn: async (body: InviteMemberRequest) =>
      (await (await apiRequest("POST", "/api/merchant/team/invitations", body)).json()) as Invitation,
    onSuccess: () => void refreshTeam(),
  });
}

export function useRevokeInvitation() {
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest("DELETE", `/api/merchant/team/invitations/${encodeURIComponent(id)}`);
    },
    onSuccess: () => void refreshTeam(),
  });
}

export function useChangeRole() {
  return useMutation({
    mutationFn: async ({ userId, role }: { userId: string; role: InvitableRole }) =>
      (await (
        await apiRequest("PATCH", `/api/merchant/team/members/${encodeURIComponent(userId)}`, { role })
      ).json()) as Team,
    onSuccess: (team) => queryClient.setQueryData(teamQueryKey, team),
  });
}

export function useRemoveMember() {
  return useMutation({
    mutationFn: async (userId: string) => {
      await apiRequest("DELETE", `/api/merchant/team/members/${encodeURIComponent(userId)}`);
    },
    onSuccess: () => void refreshTeam(),
  });
}

export function useTransferOwnership() {
  return useMutation({
    mutationFn: async (userId: string) =>
      (await (await apiRequest("POST", "/api/merchant/team/transfer-ownership", { userId })).json()) as Team,
    onSuccess: (team) => {
      queryClient.setQueryData(teamQueryKey, team);
      // The viewer's own role changed: everything that depends on it is read again.
      void queryClient.invalidateQueries({ queryKey: ["/api/merchant"] });
    },
  });
}
