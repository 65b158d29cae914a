import type { PublicPayment } from "@common/payments";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { publicPaymentQueryKey } from "./get-public-payment";

/** POST /api/payments/public/:reference/tx: the fast path after paying from the page's wallet. */
export async function submitPaymentTx(reference: string, txHash: string): Promise<PublicPayment> {
  const response = await apiRequest("POST", `/api/payments/public/${encodeURIComponent(reference)}/tx`, {
    txHash,
  });
  const payment = (await response.json()) as PublicPayment;
  queryClient.setQueryData(publicPaymentQueryKey(reference), payment);
  return payment;
}
