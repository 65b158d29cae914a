import {
  balanceQuery,
  balanceResponse,
  type ChainConfigResponse,
  chainConfigResponse,
  PROXIED_RPC_METHODS,
} from "@common/chain.ts";
import { apiErrorBody } from "@common/errors.ts";
import { priceResponse } from "@common/price.ts";
import { getAddress, isAddress } from "viem";
import { formatPrice } from "../../chain/price.ts";
import type { Chain } from "../../chain/service.ts";
import type { Config } from "../../config.ts";
import { AppError } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { requestOrigin } from "../../lib/public-origin.ts";

const errors = { 400: apiErrorBody, 502: apiErrorBody, 503: apiErrorBody, 504: apiErrorBody };

function requireChain(chain: Chain | null): Chain {
  if (!chain)
    throw new AppError("SERVICE_UNAVAILABLE", "No blockchain connection is configured on this server.");
  return chain;
}

/** What the browser needs of the chain (`GET /api/chain-config`; also in the server-rendered pay page's data). */
export function chainConfigView(c: Chain, origin: string): ChainConfigResponse {
  const definition = c.client.chain;
  const rpcUrl =
    c.browserRpc?.kind === "public"
      ? c.browserRpc.url
      : c.browserRpc?.kind === "proxy"
        ? `${origin}/api/chain/rpc`
        : null;
  return {
    chainId: c.chainId,
    chainName:
      c.browserRpc?.kind === "proxy" ? "CPXTB Development Chain" : (definition?.name ?? `Chain ${c.chainId}`),
    rpcUrl,
    blockExplorerUrl: definition?.blockExplorers?.default.url ?? null,
    nativeCurrency: definition?.nativeCurrency ?? { name: "Ether", symbol: "ETH", decimals: 18 },
    token: { address: c.token.address, symbol: c.token.symbol, decimals: c.token.decimals },
    confirmations: c.confirmations,
    development: c.browserRpc?.kind === "proxy",
  };
}

export async function chainRoutes(
  app: FastifyZod,
  { chain, config }: { chain: Chain | null; config: Pick<Config, "publicUrl" | "publicUrlFromListen"> },
) {
  app.get(
    "/api/balance",
    {
      config: { rateLimit: "public" },
      schema: { querystring: balanceQuery, response: { 200: balanceResponse, ...errors } },
    },
    async (request, reply) => {
      const { address } = request.query;
      // All-lowercase and all-uppercase hex carry no checksum; mixed case must match EIP-55.
      if (!isAddress(address, { strict: true })) {
        throw new AppError(
          "BAD_REQUEST",
          "address has an invalid EIP-55 checksum (check the letters' case).",
        );
      }
      const walletAddress = getAddress(address);
      const { balance } = await requireChain(chain).getBalance(walletAddress);
      reply.header("Cache-Control", "private, max-age=5");
      return { balance, walletAddress };
    },
  );

  app.get(
    "/api/price",
    { config: { rateLimit: "public" }, schema: { response: { 200: priceResponse, ...errors } } },
    async (_request, reply) => {
      const price = await requireChain(chain).price.getPrice();
      reply.header("Cache-Control", "public, max-age=5");
      return formatPrice(price);
    },
  );

  app.get(
    "/api/chain-config",
    {
      config: { rateLimit: "public" },
      schema: { response: { 200: chainConfigResponse, 503: apiErrorBody } },
    },
    async (request) => chainConfigView(requireChain(chain), requestOrigin(config, request)),
  );

  if (chain?.browserRpc?.kind === "proxy") await developmentRpcProxy(app, chain.browserRpc.target);
}

const allowed = new Set<string>(PROXIED_RPC_METHODS);

/** Real calls nest a few levels (eth_getLogs topics: 4); far more is an attack on the serialiser. */
const MAX_RPC_DEPTH = 16;

/** Whether a parsed JSON value nests deeper than `max` arrays/objects; iterative, so any depth is safe. */
function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The embedded anvil listens on a random loopback port; browsers and wallets reach it through this stable,
 * same-origin URL instead. Only reads and already-signed transactions pass: anvil's unlocked-account and
 * cheat-code methods (eth_sendTransaction, anvil_*, evm_*) stay private to the server.
 */
async function developmentRpcProxy(app: FastifyZod, target: string) {
  // A wallet polls through it every 4 s: the generous "public" group.
  app.post(
    "/api/chain/rpc",
    { bodyLimit: 256 * 1024, config: { rateLimit: "public" } },
    async (request, reply) => {
      const body = request.body as unknown;
      const calls = Array.isArray(body) ? body : [body];
      if (calls.length === 0 || calls.length > 50)
        throw new AppError("BAD_REQUEST", "Send 1 to 50 JSON-RPC calls.");
      // Checked before anything else reads the body: JSON.stringify of a deeply nested value overflows the
      // stack, and an untrusted value's string form is never put into a message.
      if (deeperThan(body, MAX_RPC_DEPTH)) {
        throw new AppError("BAD_REQUEST", `JSON-RPC calls may nest at most ${MAX_RPC_DEPTH} levels deep.`);
      }
      for (const call of calls) {
        const method = (call as { method?: unknown } | null)?.method;
        if (typeof call !== "object" || call === null || Array.isArray(call) || typeof method !== "string") {
          throw new AppError("BAD_REQUEST", "Each JSON-RPC call must be an object with a string method.");
        }
        if (!allowed.has(method)) {
          throw new AppError(
            "FORBIDDEN",
            `JSON-RPC method ${JSON.stringify(method.slice(0, 64))} is not available through this proxy.`,
          );
        }
      }
      let response: Response;
      try {
        response = await fetch(target, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
      } catch {
        throw new AppError("BAD_GATEWAY", "The development chain is not reachable.");
      }
      reply.status(response.ok ? 200 : 502).header("content-type", "application/json");
      return reply.send(await response.text());
    },
  );
}
