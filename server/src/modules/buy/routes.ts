import {
  buyAmountInput,
  buyConfigResponse,
  buyOrderParams,
  buyOrderResponse,
  buyQuoteResponse,
  buyWalletChallengeRequest,
  buyWalletChallengeResponse,
  createBuyOrderRequest,
  createPaypalOrderRequest,
  paypalReturnQuery,
  submitBuyTxRequest,
} from "@common/buy.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { formatUnits, type Hex } from "viem";
import { AppError } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { buyerOf, createBuyWalletChallenge, owns, proveBuyerWallet } from "./ownership.ts";
import { capturePaypalOrder, createPaypalOrder } from "./paypal.ts";
import { formatEth, formatUsd } from "./quote.ts";
import * as service from "./service.ts";

export async function buyRoutes(app: FastifyZod, { deps }: { deps: service.BuyDeps }) {
  const { config } = deps;
  const site = `CPXTB Pay (${new URL(config.publicUrl).host})`;

  /**
   * The order, if this request's buyer owns it (decision 013); anyone else — another account, a signed-out
   * visitor, a guessed id — is told there is no such order, like for an id that does not exist.
   */
  async function ownedOrder(request: FastifyRequest, reply: FastifyReply, id: string) {
    const buyer = await buyerOf(deps.db, request, reply, { create: false });
    const found = await service.findOrder(deps.db, id);
    if (!found || !owns(buyer, found.order))
      throw new AppError("NOT_FOUND", "No such order.", { reason: "order_not_found" });
    return found;
  }

  app.post(
    "/api/buy/wallet-challenge",
    {
      config: { rateLimit: "verify" },
      schema: { body: buyWalletChallengeRequest, response: { 200: buyWalletChallengeResponse } },
    },
    async (request, reply) => {
      const buyer = await buyerOf(deps.db, request, reply, { create: true });
      return createBuyWalletChallenge(deps.db, buyer, request.body.address, site, deps.now());
    },
  );

  app.get("/api/buy/config", { schema: { response: { 200: buyConfigResponse } } }, async () => ({
    available: service.buyUnavailableReason(deps) === null,
    reason: service.buyUnavailableReason(deps),
    unavailableReason: service.buyUnavailableCode(deps),
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
      const buyer = await buyerOf(deps.db, request, reply, { create: true });
      const order = await service.createOrder(deps, request.body, buyer, () =>
        proveBuyerWallet(deps.db, buyer, request.body.buyerAddress, request.body.proof, deps.now()),
      );
      return reply.status(201).send(service.toOrderView(config, order, null, deps.now()));
    },
  );

  app.get(
    "/api/buy/orders/:id",
    { schema: { params: buyOrderParams, response: { 200: buyOrderResponse } } },
    async (request, reply) => {
      const found = await ownedOrder(request, reply, request.params.id);
      return service.toOrderView(config, found.order, found.send, deps.now());
    },
  );

  app.post(
    "/api/buy/orders/:id/tx",
    {
      config: { rateLimit: "verify" },
      schema: { params: buyOrderParams, body: submitBuyTxRequest, response: { 200: buyOrderResponse } },
    },
    async (request, reply) => {
      const { order } = await ownedOrder(request, reply, request.params.id);
      await service.submitEthPayment(deps, order, request.body.txHash as Hex);
      const found = await service.findOrder(deps.db, request.params.id);
      return service.toOrderView(config, found!.order, found!.send, deps.now());
    },
  );

  app.post(
    "/api/buy/paypal/orders",
    { schema: { body: createPaypalOrderRequest, response: { 201: buyOrderResponse } } },
    async (request, reply) => {
      const buyer = await buyerOf(deps.db, request, reply, { create: true });
      const { order, approveUrl } = await createPaypalOrder(deps, request.body, buyer);
      return reply.status(201).send(service.toOrderView(config, order, null, deps.now(), approveUrl));
    },
  );

  /**
   * PayPal's return URL: capture (verified), then the order page; a failure there shows on that page. Only the
   * order's owner's browser captures here (anyone else is just redirected; the page retries for its owner).
   */
  app.get(
    "/api/buy/paypal/return",
    { schema: { querystring: paypalReturnQuery } },
    async (request, reply) => {
      const id = request.query.order;
      const buyer = await buyerOf(deps.db, request, reply, { create: false });
      const found = await service.findOrder(deps.db, id);
      if (!found || !owns(buyer, found.order)) return reply.redirect(`/buy-cpxtb/orders/${id}`, 303);
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
    async (request, reply) => {
      await ownedOrder(request, reply, request.params.id);
      await capturePaypalOrder(deps, request.params.id);
      const found = await service.findOrder(deps.db, request.params.id);
      return service.toOrderView(config, found!.order, found!.send, deps.now());
    },
  );
}
