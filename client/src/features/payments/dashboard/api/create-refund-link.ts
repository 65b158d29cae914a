import type { createdRefundLinkResponse } from "@common/refunds";
import { useMutation } from "@tanstack/react-query";
import type * as z from "zod";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { paymentDetailQueryKey } from "./get-payment-detail";

export type CreatedRefundLink = z.infer<typeof createdRefundLinkResponse>;

/** POST /api/merchant/payments/:id/refund-links: a link for the payer to give an address (shown once). */
export async function createRefundLink(id: string): Promise<CreatedRefundLink> {
  const response = await apiRequest("POST", `/api/merchant/payments/${id}/refund-links`);
  return (await response.json()) as CreatedRefundLink;
}

export function useCreateRefundLink(id: string) {
  return useMutation({
    mutationFn: () => createRefundLink(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentDetailQueryKey(id) }),
  });
}
