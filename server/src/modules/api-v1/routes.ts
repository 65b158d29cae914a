import { type ApiKeyScope, v1CreateHeaders, v1ListPaymentsQuery } from "@common/api-keys.ts";
import { apiErrorBody } from "@common/errors.ts";
import {
  createLinkRequest,
  linkIdParams,
  linkResponse,
  listLinksQuery,
  listLinksResponse,
  updateLinkRequest,
} from "@common/links.ts";
import {
  createPaymentRequest,
  listPaymentsResponse,
  paymentDetailResponse,
  paymentIdParams,
  paymentResponse,
} from "@common/payments.ts";
import type { FastifyRequest, RouteOptions } from "fastify";
import type { Config } from "../../config.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { type ApiKeyAuth, requireApiKey } from "../api-keys/service.ts";
import { auditContext } from "../audit/record.ts";
import * as links from "../links/service.ts";
import type { PublicPaymentCache } from "../payments/public-cache.ts";
import * as repo from "../payments/repository.ts";
import * as payments from "../payments/service.ts";
import { toPaymentResponse } from "../payments/views.ts";
import { createPaymentIdempotently } from "./service.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A /api/v1 route: the API key's permission it needs (checked before the body is read). */
    apiScope?: ApiKeyScope;
  }
  interface FastifySchema {
    summary?: string;
    description?: string;
  }
}

/** The /api/v1 routes as registered (method, url, schema, config): the OpenAPI document is made from them. */
export type ApiRouteCatalog = Pick<RouteOptions, "method" | "url" | "schema" | "config">[];

const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, apiErrorBody]));

/**
 * The server-to-server API: authenticated by `Authorization: Bearer <API key>` only (a session cookie never
 * counts here), rate limited per key (the `api` group), scoped to the key's merchant inside every query.
 */
export async function v1Routes(
  app: FastifyZod,
  {
    deps,
    config,
    catalog,
    publicCache,
  }: {
    deps: payments.PaymentsDeps;
    config: Config;
    catalog: ApiRouteCatalog;
    publicCache: PublicPaymentCache;
  },
) {
  const { db } = deps;
  app.addHook("onRoute", (route) => {
    if (route.method !== "HEAD") catalog.push(route);
  });
  // After the rate limiter (onRequest) and before the body is parsed: no key, no parsing.
  app.addHook("preParsing", async (request, _reply, payload) => {
    const scope = request.routeOptions.config.apiScope;
    if (scope) await requireApiKey(db, request, scope, config.apiKeyKind);
    return payload;
  });
  const keyOf = (request: { apiKey: ApiKeyAuth | null | undefined }) => request.apiKey!;
  const baseUrl = config.publicUrl;

  app.post(
    "/api/v1/payments",
    {
      config: { rateLimit: "api", apiScope: "payments:write" },
      schema: {
        summary: "Create a payment",
        description:
          "The same request as the dashboard's. With an Idempotency-Key, a retry with the same body returns the same payment (header Idempotent-Replayed: true) and another body answers 409.",
        headers: v1CreateHeaders,
        body: createPaymentRequest,
        response: { 201: paymentResponse, ...errors(400, 401, 403, 404, 409, 413, 415, 429, 503) },
      },
    },
    async (request, reply) => {
      const { payment, replayed } = await createPaymentIdempotently(
        deps,
        keyOf(request),
        request.body,
        request.headers["idempotency-key"],
      );
      if (replayed) reply.header("Idempotent-Replayed", "true");
      return reply.status(201).send(toPaymentResponse(payment, baseUrl));
    },
  );

  app.get(
    "/api/v1/payments/:id",
    {
      config: { rateLimit: "api", apiScope: "payments:read" },
      schema: {
        summary: "Read a payment",
        description: "One payment of the key's merchant with its timeline and credited transfers.",
        params: paymentIdParams,
        response: { 200: paymentDetailResponse, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const payment = await payments.getPaymentOfOwner(
        db,
        { merchantId: keyOf(request).merchantId },
        request.params.id,
      );
      return payments.paymentDetail(db, payment, baseUrl);
    },
  );

  app.post(
    "/api/v1/payments/:id/cancel",
    {
      config: { rateLimit: "api", apiScope: "payments:write" },
      schema: {
        summary: "Cancel a payment",
        description:
          "Withdraws an open payment that has received nothing: its status becomes `cancelled` (final; webhook `payment.cancelled`) and a transfer that still comes for it lands in the merchant's inbox of unmatched transfers, never credited. Cancelling a cancelled payment answers it again (200). A payment that received a transfer, was paid, expired or is invalid answers 409 saying why.",
        params: paymentIdParams,
        response: { 200: paymentDetailResponse, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const key = keyOf(request);
      const payment = await payments.cancelPayment(
        deps,
        { merchantId: key.merchantId },
        request.params.id,
        `the API (key ${key.id})`,
      );
      // The pay page's cached view must not say "open" after the answer (its event is on its way too).
      publicCache.invalidate(payment.reference);
      return payments.paymentDetail(db, payment, baseUrl);
    },
  );

  app.get(
    "/api/v1/payments",
    {
      config: { rateLimit: "api", apiScope: "payments:read" },
      schema: {
        summary: "List payments",
        description:
          "The key's merchant's payments, newest first, filtered by status and creation time (from inclusive, to exclusive). Pass nextCursor as cursor for the next page; null means no more.",
        querystring: v1ListPaymentsQuery,
        response: { 200: listPaymentsResponse, ...errors(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { from, to, ...query } = request.query;
      const rows = await repo.listPaymentsOfOwner(
        db,
        { merchantId: keyOf(request).merchantId },
        {
          ...query,
          from: from ? new Date(from) : undefined,
          to: to ? new Date(to) : undefined,
        },
      );
      return payments.toPaymentPage(rows, query.limit, baseUrl);
    },
  );

  // Payment links (issue 35): read with payments:read, changed with payments:write.
  const merchantOf = (request: { apiKey: ApiKeyAuth | null | undefined }) => ({
    merchantId: keyOf(request).merchantId,
  });

  // The audit log's entry of a change made with a key: no member acted; the key is named in it.
  const actorOf = (request: FastifyRequest): links.LinkActor => ({
    ...auditContext(request, null),
    apiKeyId: keyOf(request).id,
  });

  app.post(
    "/api/v1/links",
    {
      config: { rateLimit: "api", apiScope: "payments:write" },
      schema: {
        summary: "Create a payment link",
        description:
          "A reusable link (/l/{slug}) sold many times: each Pay on its page makes a payment request of its own, carrying the link's id (`linkId`). Fixed price (with an optional quantity limit) or the payer chooses, at least `minAmount`.",
        body: createLinkRequest,
        response: { 201: linkResponse, ...errors(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await links.createLink(db, merchantOf(request), actorOf(request), request.body, baseUrl)),
  );

  app.get(
    "/api/v1/links",
    {
      config: { rateLimit: "api", apiScope: "payments:read" },
      schema: {
        summary: "List payment links",
        description:
          "The key's merchant's links with their numbers (requests, paid, paid total, units left), newest first. `products=true`: only the switched-on fixed-price links (the point of sale's items).",
        querystring: listLinksQuery,
        response: { 200: listLinksResponse, ...errors(400, 401, 403, 429) },
      },
    },
    async (request) =>
      links.listLinks(db, merchantOf(request), baseUrl, { productsOnly: request.query.products }),
  );

  app.get(
    "/api/v1/links/:id",
    {
      config: { rateLimit: "api", apiScope: "payments:read" },
      schema: {
        summary: "Read a payment link",
        description:
          "One link of the key's merchant with its numbers. Its payments: GET /api/v1/payments?linkId=.",
        params: linkIdParams,
        response: { 200: linkResponse, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (request) => links.getLink(db, merchantOf(request), request.params.id, baseUrl),
  );

  app.patch(
    "/api/v1/links/:id",
    {
      config: { rateLimit: "api", apiScope: "payments:write" },
      schema: {
        summary: "Update a payment link",
        description:
          "Changes the fields given. `active: false` switches the link off (its page says so and takes no payment), `true` on again. Payments already made keep their amounts.",
        params: linkIdParams,
        body: updateLinkRequest,
        response: { 200: linkResponse, ...errors(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) =>
      links.updateLink(db, merchantOf(request), actorOf(request), request.params.id, request.body, baseUrl),
  );

  app.post(
    "/api/v1/links/:id/deactivate",
    {
      config: { rateLimit: "api", apiScope: "payments:write" },
      schema: {
        summary: "Switch a payment link off",
        description:
          "The same as PATCH with `active: false`: the link's page says it is switched off and takes no payment; its open requests stay payable.",
        params: linkIdParams,
        response: { 200: linkResponse, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (request) =>
      links.updateLink(
        db,
        merchantOf(request),
        actorOf(request),
        request.params.id,
        { active: false },
        baseUrl,
      ),
  );
}
