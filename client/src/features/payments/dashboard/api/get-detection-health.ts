import { useQuery } from "@tanstack/react-query";

const READY_REFRESH_MS = 15_000;

/** Whether the payment indexer reports healthy in GET /api/ready (checked every 15 s). */
export function useDetectionHealthy(): boolean {
  const ready = useQuery({
    queryKey: ["/api/ready"],
    queryFn: async ({ signal }) => {
      const response = await fetch("/api/ready", { signal });
      if (!response.ok) return false;
      const body = (await response.json()) as { indexer?: { healthy: boolean } };
      return body.indexer?.healthy === true;
    },
    refetchInterval: READY_REFRESH_MS,
    staleTime: 0,
  });
  return ready.data === true;
}
