import {
  createLinkRequest,
  linkIdParams,
  linkResponse,
  linkSlugParams,
  listLinksQuery,
  listLinksResponse,
  payLinkRequest,
  payLinkResponse,
  publicLinkResponse,
  updateLinkRequest,
} from "@common/links.ts";
import { ALL_ROLES, MANAGER_ROLES } from "@common/team.ts";
import type { Config } from "../../config.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { requestLocale } from "../../lib/i18n.ts";
import { ownerContext } from "../audit/record.ts";
import { authOf } from "../merchants/access.ts";
import type { PaymentsDeps } from "../payments/service.ts";
import * as service from "./service.ts";

/**
 * Payment links (issue 35): the dashboard's `/api/merchant/links` (every member reads them, the point of sale's
 * item grid among them; owners and admins change them) and the payer's `/api/links/public/:slug` and its "Pay".
 */
export async function linkRoutes(app: FastifyZod, { deps, config }: { deps: PaymentsDeps; config: Config }) {
  const { db } = deps;
  const baseUrl = config.publicUrl;
  const managers = (userId: string) => ({ userId, roles: MANAGER_ROLES });

  app.get(
    "/api/merchant/links",
    {
      config: { merchant: { roles: ALL_ROLES, noBusiness: "empty" } },
      schema: { querystring: listLinksQuery, response: { 200: listLinksResponse } },
    },
    async (request) =>
      service.listLinks(db, authOf(request).user.id, baseUrl, { productsOnly: request.query.products }),
  );

  app.post(
    "/api/merchant/links",
    {
      config: { merchant: { roles: MANAGER_ROLES } },
      schema: { body: createLinkRequest, response: { 201: linkResponse } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await service.createLink(
            db,
            managers(authOf(request).user.id),
            ownerContext(request, authOf(request)),
            request.body,
            baseUrl,
          ),
        ),
  );

  app.get(
    "/api/merchant/links/:id",
    {
      config: { merchant: { roles: ALL_ROLES } },
      schema: { params: linkIdParams, response: { 200: linkResponse } },
    },
    async (request) => service.getLink(db, authOf(request).user.id, request.params.id, baseUrl),
  );

  app.patch(
    "/api/merchant/links/:id",
    {
      config: { merchant: { roles: MANAGER_ROLES } },
      schema: { params: linkIdParams, body: updateLinkRequest, response: { 200: linkResponse } },
    },
    async (request) =>
      service.updateLink(
        db,
        managers(authOf(request).user.id),
        ownerContext(request, authOf(request)),
        request.params.id,
        request.body,
        baseUrl,
      ),
  );

  app.get(
    "/api/links/public/:slug",
    {
      config: { rateLimit: "public" },
      schema: { params: linkSlugParams, response: { 200: publicLinkResponse } },
    },
    async (request) => service.getPublicLink(db, request.params.slug),
  );

  app.post(
    "/api/links/public/:slug/pay",
    {
      config: { rateLimit: "public" },
      schema: { params: linkSlugParams, body: payLinkRequest, response: { 201: payLinkResponse } },
    },
    async (request, reply) => {
      // The payer's receipt is written in the language they read the link's page in (issue 37).
      const payment = await service.payLink(deps, request.params.slug, request.body, (payLanguage) =>
        requestLocale(request, payLanguage),
      );
      return reply
        .status(201)
        .send({ reference: payment.reference, paymentUrl: `${baseUrl}/pay/${payment.reference}` });
    },
  );
}
