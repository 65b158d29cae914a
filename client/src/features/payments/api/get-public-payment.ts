import type { PublicPayment } from "@common/payments";
import { queryOptions, useQuery } from "@tanstack/react-query";

export const publicPaymentQueryKey = (reference: string) =>
  [`/api/payments/public/${encodeURIComponent(reference)}`] as const;

/** GET /api/payments/public/:reference through the default loader; live updates write into the same key. */
export const publicPaymentQueryOptions = (reference: string) =>
  queryOptions<PublicPayment>({ queryKey: publicPaymentQueryKey(reference) });

export function usePublicPayment(reference: string) {
  return useQuery(publicPaymentQueryOptions(reference));
}
