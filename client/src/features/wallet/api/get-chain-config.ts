import type { ChainConfigResponse } from "@common/chain";
import { queryOptions } from "@tanstack/react-query";

export const chainConfigQueryKey = ["/api/chain-config"] as const;

/** The token's chain as the server runs it (chain id, RPC for wallets, token address/symbol/decimals). */
export const chainConfigQueryOptions = () =>
  queryOptions<ChainConfigResponse>({ queryKey: chainConfigQueryKey });
