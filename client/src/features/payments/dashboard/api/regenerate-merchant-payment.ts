import type { Payment } from "@common/payments";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { paymentDetailQueryKey } from "./get-payment-detail";
import { upsertHistoryPayment } from "./get-payment-history";

/** POST /api/merchant/payments/:id/regenerate: a new payment (new rate, new expiry) for an expired unpaid one. */
export async function regenerateMerchantPayment(id: string): Promise<Payment> {
  const response = await apiRequest("POST", `/api/merchant/payments/${id}/regenerate`);
  return (await response.json()) as Payment;
}

export function useRegenerateMerchantPayment(id: string) {
  return useMutation({
    mutationFn: () => regenerateMerchantPayment(id),
    onSuccess: (payment) => {
      upsertHistoryPayment(payment);
      // The old payment now links to its successor.
      void queryClient.invalidateQueries({ queryKey: paymentDetailQueryKey(id) });
    },
  });
}
