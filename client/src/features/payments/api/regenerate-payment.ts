import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

type Regenerated = { reference: string; paymentUrl: string };

/** POST /api/payments/public/:reference/regenerate: a new payment (new rate, new expiry) for an expired one. */
export async function regeneratePayment(reference: string): Promise<Regenerated> {
  const response = await apiRequest(
    "POST",
    `/api/payments/public/${encodeURIComponent(reference)}/regenerate`,
  );
  return (await response.json()) as Regenerated;
}

export function useRegeneratePayment() {
  return useMutation({ mutationFn: regeneratePayment });
}
