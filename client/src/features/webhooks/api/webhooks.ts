import type {
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from "@common/webhooks";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";

export const endpointsQueryKey = ["/api/merchant/webhooks"] as const;
const deliveriesKey = (endpointId: string) => [`/api/merchant/webhooks/${endpointId}/deliveries`] as const;

export const useWebhookEndpoints = (enabled: boolean) =>
  useQuery({
    ...queryOptions<{ items: WebhookEndpoint[]; localTargets: boolean }>({ queryKey: endpointsQueryKey }),
    enabled,
  });

/** The delivery log; refreshed every few seconds while something is still on its way. */
export function useDeliveries(endpointId: string) {
  return useQuery({
    ...queryOptions<{ items: WebhookDelivery[] }>({ queryKey: deliveriesKey(endpointId) }),
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === "pending") ? 2000 : false),
  });
}

const refreshEndpoints = () => queryClient.invalidateQueries({ queryKey: endpointsQueryKey });
const refreshDeliveries = (endpointId: string) =>
  queryClient.invalidateQueries({ queryKey: deliveriesKey(endpointId) });

export function useCreateEndpoint() {
  return useMutation({
    mutationFn: async (body: CreateWebhookEndpointRequest) =>
      (await (await apiRequest("POST", "/api/merchant/webhooks", body)).json()) as WebhookEndpointWithSecret,
    onSuccess: () => void refreshEndpoints(),
  });
}

export function useUpdateEndpoint(id: string) {
  return useMutation({
    mutationFn: async (body: UpdateWebhookEndpointRequest) =>
      (await (await apiRequest("PATCH", `/api/merchant/webhooks/${id}`, body)).json()) as WebhookEndpoint,
    onSuccess: () => void refreshEndpoints(),
  });
}

export function useDeleteEndpoint(id: string) {
  return useMutation({
    mutationFn: async () => {
      await apiRequest("DELETE", `/api/merchant/webhooks/${id}`);
    },
    onSuccess: () => void refreshEndpoints(),
  });
}

export function useRotateSecret(id: string) {
  return useMutation({
    mutationFn: async () =>
      (await (
        await apiRequest("POST", `/api/merchant/webhooks/${id}/rotate-secret`)
      ).json()) as WebhookEndpointWithSecret,
    onSuccess: () => void refreshEndpoints(),
  });
}

export function useSendTestEvent(id: string) {
  return useMutation({
    mutationFn: async () =>
      (await (await apiRequest("POST", `/api/merchant/webhooks/${id}/test`)).json()) as WebhookDelivery,
    onSuccess: () => void refreshDeliveries(id),
  });
}

export function useReplayDelivery(endpointId: string) {
  return useMutation({
    mutationFn: async (deliveryId: string) =>
      (await (
        await apiRequest("POST", `/api/merchant/webhook-deliveries/${deliveryId}/replay`)
      ).json()) as WebhookDelivery,
    onSuccess: () => void refreshDeliveries(endpointId),
  });
}
