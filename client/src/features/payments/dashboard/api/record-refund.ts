import type { RecordRefundRequest } from "@common/refunds";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { type PaymentDetail, paymentDetailQueryKey } from "./get-payment-detail";
import { upsertHistoryPayment } from "./get-payment-history";

/**
 * POST /api/merchant/payments/:id/refunds: the server reads the refund's transaction from the chain (token, from
 * the receiving wallet, to the refund address, amount) and records it only when everything matches.
 */
export async function recordRefund(id: string, body: RecordRefundRequest): Promise<PaymentDetail> {
  const response = await apiRequest("POST", `/api/merchant/payments/${id}/refunds`, body);
  return (await response.json()) as PaymentDetail;
}

/** Puts the answer where the detail and the history read it. */
export function showRefundedPayment(id: string, detail: PaymentDetail) {
  queryClient.setQueryData(paymentDetailQueryKey(id), detail);
  const {
    timeline: _timeline,
    transfers: _transfers,
    refunds: _refunds,
    refundLinks: _links,
    refundAddresses: _addresses,
    refundableBase: _refundable,
    ...payment
  } = detail;
  upsertHistoryPayment(payment);
}

export function useRecordRefund(id: string) {
  return useMutation({
    mutationFn: (body: RecordRefundRequest) => recordRefund(id, body),
    onSuccess: (detail) => showRefundedPayment(id, detail),
  });
}
