import {
  assignTransferRequest,
  createPaymentRequest,
  inboxResponse,
  listPaymentsQuery,
  listPaymentsResponse,
  paymentDetailResponse,
  paymentIdParams,
  paymentResponse,
  posSalesQuery,
  posSalesResponse,
  publicPaymentResponse,
  referenceParams,
  submitTxRequest,
  transferIdParams,
} from "@common/payments.ts";
import { ALL_ROLES } from "@common/team.ts";
import * as z from "zod";
import type { Config } from "../../config.ts";
import { AppError } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { auditContext } from "../audit/record.ts";
import { authOf } from "../merchants/access.ts";
import { formatCents, formatTokens } from "./amounts.ts";
import type { PublicPaymentCache } from "./public-cache.ts";
import * as repo from "./repository.ts";
import * as service from "./service.ts";
import { toPaymentResponse, toTransferResponse } from "./views.ts";

const regeneratedResponse = z.object({ reference: z.string(), paymentUrl: z.string() });

export async function paymentRoutes(
  app: FastifyZod,
  {
    deps,
    config,
    publicCache,
  }: { deps: service.PaymentsDeps; config: Config; publicCache: PublicPaymentCache },
) {
  const { db } = deps;
  // Payment links travel (QR codes, emails, the merchant's own site): always the public origin (decision 010).
  const baseUrl = (_request: unknown) => config.publicUrl;
  // Every member may work with payments: the access hook checks the member first (403 for a removed member, a
  // missing second factor), and the query that reads the data checks the membership again (decision 021).
  const members = { merchant: { roles: ALL_ROLES } };
  const ownPayment = (userId: string, id: string) => service.getPaymentOfOwner(db, userId, id);
  const detail = (payment: repo.PaymentRow, url: string) =>
    service.paymentDetail(db, payment, url, deps.now());

  app.post(
    "/api/merchant/payments",
    { config: members, schema: { body: createPaymentRequest, response: { 201: paymentResponse } } },
    async (request, reply) => {
      // The merchant is read by the insert itself, scoped by the membership again.
      const payment = await service.createPayment(deps, { ownerId: authOf(request).user.id }, request.body);
      return reply.status(201).send(toPaymentResponse(payment, baseUrl(request)));
    },
  );

  app.get(
    "/api/merchant/payments",
    {
      config: { merchant: { roles: ALL_ROLES, noBusiness: "empty" } },
      schema: { querystring: listPaymentsQuery, response: { 200: listPaymentsResponse } },
    },
    async (request) => {
      const rows = await repo.listPaymentsOfOwner(db, authOf(request).user.id, request.query);
      return service.toPaymentPage(rows, request.query.limit, baseUrl(request));
    },
  );

  app.get(
    "/api/merchant/payments/:id",
    { config: members, schema: { params: paymentIdParams, response: { 200: paymentDetailResponse } } },
    async (request) => detail(await ownPayment(authOf(request).user.id, request.params.id), baseUrl(request)),
  );

  app.post(
    "/api/merchant/payments/:id/regenerate",
    { config: members, schema: { params: paymentIdParams, response: { 201: paymentResponse } } },
    async (request, reply) => {
      const payment = await service.regeneratePayment(
        deps,
        await ownPayment(authOf(request).user.id, request.params.id),
      );
      return reply.status(201).send(toPaymentResponse(payment, baseUrl(request)));
    },
  );

  // Every member may cancel a payment of the business that received nothing: staff at the counter too (decision
  // 033; the role matrix of decision 021 lists it).
  app.post(
    "/api/merchant/payments/:id/cancel",
    { config: members, schema: { params: paymentIdParams, response: { 200: paymentDetailResponse } } },
    async (request) => {
      const { user } = authOf(request);
      // The timeline names the member as the team screen does (display name, else username), not by id.
      const by = user.displayName ?? user.username;
      const payment = await service.cancelPayment(deps, user.id, request.params.id, by);
      // The pay page's cached view must not say "open" after the answer (its event is on its way too).
      publicCache.invalidate(payment.reference);
      return detail(payment, baseUrl(request));
    },
  );

  // The counter's "today": what the signed-in member sold (decision 033); every member runs a counter.
  app.get(
    "/api/merchant/pos/today",
    { config: members, schema: { querystring: posSalesQuery, response: { 200: posSalesResponse } } },
    async (request) => {
      const sales = await repo.sumSalesOfMember(db, authOf(request).user.id, new Date(request.query.since));
      return {
        count: sales.count,
        usd: formatCents(sales.usdCents),
        cpxtb: formatTokens(sales.base, deps.chain?.token.decimals ?? 18),
      };
    },
  );

  app.post(
    "/api/merchant/payments/:id/tx",
    {
      config: members,
      schema: { params: paymentIdParams, body: submitTxRequest, response: { 200: paymentDetailResponse } },
    },
    async (request) => {
      const auth = authOf(request);
      const payment = await ownPayment(auth.user.id, request.params.id);
      await service.submitTransaction(deps, payment, request.body.txHash as `0x${string}`);
      return detail(await ownPayment(auth.user.id, request.params.id), baseUrl(request));
    },
  );

  app.get(
    "/api/merchant/inbox",
    { config: members, schema: { response: { 200: inboxResponse } } },
    async (request) => {
      const decimals = deps.chain?.token.decimals ?? 18;
      const transfers = await repo.listInboxOfOwner(db, authOf(request).user.id);
      const suggestions = await repo.listInboxSuggestions(db, transfers);
      return {
        items: transfers.map((t) => ({
          ...toTransferResponse(t, decimals),
          suggestions: suggestions
            .filter((s) => s.transfer_id === t.id)
            .map((s) => ({
              id: s.id,
              reference: s.reference,
              status: s.status,
              amountDue: formatTokens(BigInt(s.amount_due), decimals),
              amountToPay: formatTokens(BigInt(s.amount_requested), decimals),
              description: s.description,
              orderId: s.order_id,
            })),
        })),
      };
    },
  );

  app.post(
    "/api/merchant/inbox/:id/dismiss",
    { config: members, schema: { params: transferIdParams } },
    async (request, reply) => {
      const userId = authOf(request).user.id;
      await service.dismissTransfer(deps, userId, request.params.id, auditContext(request, userId));
      return reply.status(204).send();
    },
  );

  app.post(
    "/api/merchant/inbox/:id/assign",
    {
      config: members,
      schema: {
        params: transferIdParams,
        body: assignTransferRequest,
        response: { 200: paymentDetailResponse },
      },
    },
    async (request) => {
      const payment = await service.assignTransfer(
        deps,
        authOf(request).user.id,
        request.params.id,
        request.body.paymentId,
      );
      return detail(payment, baseUrl(request));
    },
  );

  const findByReference = async (reference: string) => {
    const found = await repo.findPaymentByReference(db, reference);
    if (!found) throw new AppError("NOT_FOUND", "No payment has this reference.");
    return found;
  };

  app.get(
    "/api/payments/public/:reference",
    {
      config: { rateLimit: "public" },
      schema: { params: referenceParams, response: { 200: publicPaymentResponse } },
    },
    async (request) => publicCache.get(request.params.reference),
  );

  app.post(
    "/api/payments/public/:reference/tx",
    { schema: { params: referenceParams, body: submitTxRequest, response: { 200: publicPaymentResponse } } },
    async (request) => {
      const found = await findByReference(request.params.reference);
      await service.submitTransaction(deps, found.payment, request.body.txHash as `0x${string}`);
      // Fresh, and no cached view older than this answer is served meanwhile (its event is on its way).
      publicCache.invalidate(request.params.reference);
      return service.getPublicPayment(deps, request.params.reference);
    },
  );

  app.post(
    "/api/payments/public/:reference/regenerate",
    { schema: { params: referenceParams, response: { 201: regeneratedResponse } } },
    async (request, reply) => {
      const found = await findByReference(request.params.reference);
      const payment = await service.regeneratePayment(deps, found.payment);
      publicCache.invalidate(request.params.reference);
      return reply
        .status(201)
        .send({ reference: payment.reference, paymentUrl: `${baseUrl(request)}/pay/${payment.reference}` });
    },
  );
}
