import type { paymentDetailResponse } from "@common/payments";
import { queryOptions, useQuery } from "@tanstack/react-query";
import type * as z from "zod";

export type PaymentDetail = z.infer<typeof paymentDetailResponse>;

export const paymentDetailQueryKey = (id: string) => [`/api/merchant/payments/${id}`] as const;

/** GET /api/merchant/payments/:id: the payment with its timeline and credited transfers. */
export const paymentDetailQueryOptions = (id: string) =>
  queryOptions<PaymentDetail>({ queryKey: paymentDetailQueryKey(id) });

export function usePaymentDetail(id: string) {
  return useQuery(paymentDetailQueryOptions(id));
}
