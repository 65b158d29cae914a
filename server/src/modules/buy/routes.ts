import {
  buyAmountInput,
  buyConfigResponse,
  buyOrderParams,
  buyOrderResponse,
  buyQuoteResponse,
  createBuyOrderRequest,
  createPaypalOrderRequest,
  paypalReturnQuery,
  submitBuyTxRequest,
} from "@common/buy.ts";
import { formatUnits, type Hex } from "viem";
import { AppError } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { resolveAuth } from "../auth/session.ts";
import { capturePaypalOrder, createPaypalOrder } from "./paypal.ts";
import { formatEth, formatUsd } from "./quote.ts";
import * as service from "./service.ts";

export async function buyRoutes(app: FastifyZod, { deps }: { deps: service.BuyDeps }) {
  const { config } = deps;

  app.get("/api/buy/config", { schema: { response: { 200: buyConfigResponse } } }, async () => ({
    available: service.buyUnavailableReason(deps) === null,
    reason: service.buyUnavailableReason(deps),
    treasuryAddress: deps.treasury?.address ?? null,
    chainId: deps.chain?.chainId ?? null,
    minUsd: config.buy.minUsd,
    maxUsd: config.buy.maxUsd,
    quoteMinutes: config.buy.quoteMinutes,
    methods: { eth: deps.treasury !== null, paypal: deps.treasury !== null && deps.paypal !== null },
  }));

  app.post(
    "/api/buy/quote",
    { schema: { body: buyAmountInput, response: { 200: buyQuoteResponse } } },
    async (request) => {
      const q = await service.quote(deps, request.body);
      const decimals = deps.chain!.token.decimals;
      return {
        usd: formatUsd(q.usdCents),
        tokens: formatUnits(q.tokenAmount, decimals),
        tokenAmountBase: q.tokenAmount.toString(),
        eth: q.ethAmountWei === null ? null : formatEth(q.ethAmountWei),
        ethAmountWei: q.ethAmountWei?.toString() ?? null,
        usdPerToken: formatUnits(q.priceE18, 18),
        ethUsd: q.ethUsdE18 === null ? null : formatUnits(q.ethUsdE18, 18),
        priceUpdatedAt: q.priceUpdatedAt.toISOString(),
      };
    },
  );

  app.post(
    "/api/buy/orders",
    { schema: { body: createBuyOrderRequest, response: { 201: buyOrderResponse } } },
    async (request, reply) => {
      const auth = await resolveAuth(deps.db, request, reply);
      const order = await service.createOrder(deps, request.body, auth?.user.id ?? null);
      return reply.status(201).send(service.toOrderView(config, order, null, deps.now()));
    },
  );

  app.get(
    "/api/buy/orders/:id",
    { schema: { params: buyOrderParams, response: { 200: buyOrderResponse } } },
    async (request) => {
      const found = await service.findOrder(deps.db, request.params.id);
      if (!found) throw new AppError("NOT_FOUND", "No such order.");
      return service.toOrderView(config, found.order, found.send, deps.now());
    },
  );

  app.post(
    "/api/buy/orders/:id/tx",
    {
      config: { rateLimit: "verify" },
      schema: { params: buyOrderParams, body: submitBuyTxRequest, response: { 200: buyOrderResponse } },
    },
    async (request) => {
      await service.verifyEthPayment(deps, request.params.id, request.body.txHash as Hex);
      const found = await service.findOrder(deps.db, request.params.id);
      return service.toOrderView(config, found!.order, found!.send, deps.now());
    },
  );

  app.post(
    "/api/buy/paypal/orders",
    { schema: { body: createPaypalOrderRequest, response: { 201: buyOrderResponse } } },
    async (request, reply) => {
      const auth = await resolveAuth(deps.db, request, reply);
      const { order, approveUrl } = await createPaypalOrder(deps, request.body, auth?.user.id ?? null);
      return reply.status(201).send(service.toOrderView(config, order, null, deps.now(), approveUrl));
    },
  );

  /** PayPal's return URL: capture (verified), then the order page; a failure there shows on that page. */
  app.get(
    "/api/buy/paypal/return",
    { schema: { querystring: paypalReturnQuery } },
    async (request, reply) => {
      const id = request.query.order;
      await capturePaypalOrder(deps, id).catch((error: Error) =>
        request.log.warn({ orderId: id, err: error.message }, "PayPal return: capture not completed"),
      );
      return reply.redirect(`/buy-cpxtb/orders/${id}`, 303);
    },
  );

  app.post(
    "/api/buy/orders/:id/paypal/capture",
    {
      config: { rateLimit: "verify" },
      schema: { params: buyOrderParams, response: { 200: buyOrderResponse } },
    },
    async (request) => {
      await capturePaypalOrder(deps, request.params.id);
      const found = await service.findOrder(deps.db, request.params.id);
      return service.toOrderView(config, found!.order, found!.send, deps.now());
    },
  );
}
