import {
  acceptInvitationResponse,
  businessesResponse,
  changeRoleRequest,
  invitationParams,
  invitationPreviewResponse,
  invitationResponse,
  invitationTokenParams,
  inviteMemberRequest,
  MANAGER_ROLES,
  memberParams,
  OWNER_ONLY,
  switchBusinessRequest,
  teamResponse,
  transferOwnershipRequest,
} from "@common/team.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { recipientLocale } from "../../lib/i18n.ts";
import { ownerContext } from "../audit/record.ts";
import { authOf, memberOf } from "../merchants/access.ts";
import { requireAuth } from "../merchants/require-auth.ts";
import * as service from "./service.ts";

/** The team of a business (decision 021): members, invitations, ownership, and which business a user acts for. */
export async function teamRoutes(app: FastifyZod, deps: service.TeamDeps) {
  const { db } = deps;

  const managers = { merchant: { roles: MANAGER_ROLES } };

  app.get(
    "/api/merchant/team",
    { config: managers, schema: { response: { 200: teamResponse } } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return service.getTeam(deps, authOf(request).user.id);
    },
  );

  app.post(
    "/api/merchant/team/invitations",
    { config: managers, schema: { body: inviteMemberRequest, response: { 201: invitationResponse } } },
    async (request, reply) => {
      const auth = authOf(request);
      const invitation = await service.inviteMember(
        deps,
        ownerContext(request, auth),
        memberOf(request),
        request.body,
        recipientLocale(auth.user.locale, request),
      );
      return reply.status(201).send(invitation);
    },
  );

  app.delete(
    "/api/merchant/team/invitations/:id",
    { config: managers, schema: { params: invitationParams } },
    async (request, reply) => {
      await service.revokeInvitation(deps, ownerContext(request, authOf(request)), request.params.id);
      return reply.status(204).send();
    },
  );

  app.patch(
    "/api/merchant/team/members/:userId",
    {
      config: managers,
      schema: { params: memberParams, body: changeRoleRequest, response: { 200: teamResponse } },
    },
    async (request) => {
      const auth = authOf(request);
      await service.changeRole(deps, ownerContext(request, auth), request.params.userId, request.body.role);
      return service.getTeam(deps, auth.user.id);
    },
  );

  app.delete(
    "/api/merchant/team/members/:userId",
    { config: managers, schema: { params: memberParams } },
    async (request, reply) => {
      await service.removeMember(deps, ownerContext(request, authOf(request)), request.params.userId);
      return reply.status(204).send();
    },
  );

  app.post(
    "/api/merchant/team/transfer-ownership",
    {
      config: { merchant: { roles: OWNER_ONLY } },
      schema: { body: transferOwnershipRequest, response: { 200: teamResponse } },
    },
    async (request) => {
      const auth = authOf(request);
      await service.transferOwnership(
        deps,
        ownerContext(request, auth),
        memberOf(request),
        request.body.userId,
      );
      return service.getTeam(deps, auth.user.id);
    },
  );

  app.get(
    "/api/merchant/businesses",
    // The account's memberships, whichever business it acts for (and even if it was removed from that one).
    { config: { merchant: "account" }, schema: { response: { 200: businessesResponse } } },
    async (request) => service.listBusinesses(deps, authOf(request).user.id),
  );

  app.put(
    "/api/merchant/active-business",
    {
      config: { merchant: "account" },
      schema: { body: switchBusinessRequest, response: { 200: businessesResponse } },
    },
    async (request) => service.switchBusiness(deps, authOf(request).user.id, request.body.merchantId),
  );

  // Public: what the invitation page shows before accepting (rate limited like refund links).
  app.get(
    "/api/invitations/:token",
    {
      config: { rateLimit: "public" },
      schema: { params: invitationTokenParams, response: { 200: invitationPreviewResponse } },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return service.previewInvitation(deps, request.params.token);
    },
  );

  app.post(
    "/api/invitations/:token/accept",
    {
      config: { rateLimit: "verify" },
      schema: { params: invitationTokenParams, response: { 200: acceptInvitationResponse } },
    },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      const accepted = await service.acceptInvitation(
        deps,
        ownerContext(request, auth),
        request.params.token,
      );
      await deps.sessions.changed(auth.user.id, { ended: false });
      return accepted;
    },
  );
}
