import {
  acceptInvitationResponse,
  businessesResponse,
  changeRoleRequest,
  invitationParams,
  invitationPreviewResponse,
  invitationResponse,
  invitationTokenParams,
  inviteMemberRequest,
  memberParams,
  switchBusinessRequest,
  teamResponse,
  transferOwnershipRequest,
} from "@common/team.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { ownerContext } from "../audit/record.ts";
import { requireAuth } from "../merchants/require-auth.ts";
import * as service from "./service.ts";

/** The team of a business (decision 021): members, invitations, ownership, and which business a user acts for. */
export async function teamRoutes(app: FastifyZod, deps: service.TeamDeps) {
  const { db } = deps;

  app.get("/api/merchant/team", { schema: { response: { 200: teamResponse } } }, async (request, reply) => {
    const auth = await requireAuth(db, request, reply);
    reply.header("cache-control", "no-store");
    return service.getTeam(deps, auth.user.id);
  });

  app.post(
    "/api/merchant/team/invitations",
    { schema: { body: inviteMemberRequest, response: { 201: invitationResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      const invitation = await service.inviteMember(deps, ownerContext(request, auth), request.body);
      return reply.status(201).send(invitation);
    },
  );

  app.delete(
    "/api/merchant/team/invitations/:id",
    { schema: { params: invitationParams } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      await service.revokeInvitation(deps, ownerContext(request, auth), request.params.id);
      return reply.status(204).send();
    },
  );

  app.patch(
    "/api/merchant/team/members/:userId",
    { schema: { params: memberParams, body: changeRoleRequest, response: { 200: teamResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      await service.changeRole(deps, ownerContext(request, auth), request.params.userId, request.body.role);
      return service.getTeam(deps, auth.user.id);
    },
  );

  app.delete(
    "/api/merchant/team/members/:userId",
    { schema: { params: memberParams } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      await service.removeMember(deps, ownerContext(request, auth), request.params.userId);
      return reply.status(204).send();
    },
  );

  app.post(
    "/api/merchant/team/transfer-ownership",
    { schema: { body: transferOwnershipRequest, response: { 200: teamResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      await service.transferOwnership(deps, ownerContext(request, auth), request.body.userId);
      return service.getTeam(deps, auth.user.id);
    },
  );

  app.get(
    "/api/merchant/businesses",
    { schema: { response: { 200: businessesResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      return service.listBusinesses(deps, auth.user.id);
    },
  );

  app.put(
    "/api/merchant/active-business",
    { schema: { body: switchBusinessRequest, response: { 200: businessesResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      return service.switchBusiness(deps, auth.user.id, request.body.merchantId);
    },
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
