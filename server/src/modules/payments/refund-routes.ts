import { paymentDetailResponse, paymentIdParams } from "@common/payments.ts";
import {
  createdRefundLinkResponse,
  publicRefundLinkResponse,
  recordRefundRequest,
  refundTokenParams,
  submitRefundAddressRequest,
} from "@common/refunds.ts";
import { MANAGER_ROLES } from "@common/team.ts";
import type { Config } from "../../config.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { ownerContext } from "../audit/record.ts";
import { authOf } from "../merchants/access.ts";
import * as refunds from "./refunds.ts";
import * as service from "./service.ts";

/** Refunds (decision 018): the merchant records a verified refund or makes a refund link; the payer opens it. */
export async function refundRoutes(
  app: FastifyZod,
  { deps, config }: { deps: service.PaymentsDeps; config: Config },
) {
  const { db } = deps;

  app.post(
    "/api/merchant/payments/:id/refunds",
    {
      config: { merchant: { roles: MANAGER_ROLES } },
      schema: {
        params: paymentIdParams,
        body: recordRefundRequest,
        response: { 201: paymentDetailResponse },
      },
    },
    async (request, reply) => {
      const payment = await refunds.recordRefund(
        deps,
        ownerContext(request, authOf(request)),
        request.params.id,
        request.body,
      );
      return reply.status(201).send(await service.paymentDetail(db, payment, config.publicUrl, deps.now()));
    },
  );

  app.post(
    "/api/merchant/payments/:id/refund-links",
    {
      config: { merchant: { roles: MANAGER_ROLES } },
      schema: { params: paymentIdParams, response: { 201: createdRefundLinkResponse } },
    },
    async (request, reply) => {
      return reply
        .status(201)
        .send(
          await refunds.createRefundLink(deps, ownerContext(request, authOf(request)), request.params.id),
        );
    },
  );

  app.get(
    "/api/refund-links/:token",
    {
      config: { rateLimit: "public" },
      schema: { params: refundTokenParams, response: { 200: publicRefundLinkResponse } },
    },
    async (request) => refunds.getPublicRefundLink(deps, request.params.token),
  );

  app.post(
    "/api/refund-links/:token/address",
    {
      config: { rateLimit: "verify" },
      schema: {
        params: refundTokenParams,
        body: submitRefundAddressRequest,
        response: { 200: publicRefundLinkResponse },
      },
    },
    async (request) => refunds.submitRefundAddress(deps, request.params.token, request.body.address),
  );
}
