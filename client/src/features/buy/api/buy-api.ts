import type {
  BuyConfig,
  BuyOrder,
  BuyQuote,
  BuyWalletChallenge,
  CreateBuyOrderRequest,
  CreatePaypalOrderRequest,
} from "@common/buy";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { liveSocket } from "@/lib/live-socket";
import { queryClient } from "@/lib/query-client";

export const buyConfigQueryOptions = () => queryOptions<BuyConfig>({ queryKey: ["/api/buy/config"] });
export function useBuyConfig() {
  return useQuery(buyConfigQueryOptions());
}

/** POST /api/buy/quote: the current price for an amount in USD or in tokens (not locked). */
export async function fetchQuote(input: { usd: string } | { tokens: string }): Promise<BuyQuote> {
  return (await (await apiRequest("POST", "/api/buy/quote", input)).json()) as BuyQuote;
}

export const buyOrderQueryKey = (id: string) => [`/api/buy/orders/${encodeURIComponent(id)}`] as const;
export const buyOrderQueryOptions = (id: string) =>
  queryOptions<BuyOrder>({ queryKey: buyOrderQueryKey(id) });
export function useBuyOrder(id: string) {
  return useQuery(buyOrderQueryOptions(id));
}

/** POST /api/buy/wallet-challenge: the message the buyer's wallet signs to show it is theirs. */
export async function createBuyWalletChallenge(address: string): Promise<BuyWalletChallenge> {
  return (await (
    await apiRequest("POST", "/api/buy/wallet-challenge", { address })
  ).json()) as BuyWalletChallenge;
}

/** POST /api/buy/orders: locks the quote for the order's wallet (proven by a signature or the account). */
export async function createBuyOrder(input: CreateBuyOrderRequest): Promise<BuyOrder> {
  const order = (await (await apiRequest("POST", "/api/buy/orders", input)).json()) as BuyOrder;
  queryClient.setQueryData(buyOrderQueryKey(order.id), order);
  // Only the order's owner follows it live, known from the cookies of the socket's upgrade request: a browser
  // buying signed out may just have been given its owner cookie, so the socket connects again with it.
  liveSocket.reconnect();
  return order;
}

/** POST /api/buy/orders/:id/tx: the fast path; the server's scanner finds the payment anyway. */
export async function submitBuyTx(id: string, txHash: string): Promise<BuyOrder> {
  const response = await apiRequest("POST", `/api/buy/orders/${encodeURIComponent(id)}/tx`, { txHash });
  const order = (await response.json()) as BuyOrder;
  queryClient.setQueryData(buyOrderQueryKey(id), order);
  return order;
}

/** POST /api/buy/paypal/orders: locks the quote; the buyer then approves at `approveUrl` (PayPal). */
export async function createPaypalOrder(input: CreatePaypalOrderRequest): Promise<BuyOrder> {
  const order = (await (await apiRequest("POST", "/api/buy/paypal/orders", input)).json()) as BuyOrder;
  queryClient.setQueryData(buyOrderQueryKey(order.id), order);
  return order;
}

/** POST /api/buy/orders/:id/paypal/capture: completes an approved PayPal payment (the return hop does it too). */
export async function capturePaypalOrder(id: string): Promise<BuyOrder> {
  const response = await apiRequest("POST", `/api/buy/orders/${encodeURIComponent(id)}/paypal/capture`);
  const order = (await response.json()) as BuyOrder;
  queryClient.setQueryData(buyOrderQueryKey(id), order);
  return order;
}
