import { useQuery } from "@tanstack/react-query";

/** How often the dashboard asks while detection is healthy. */
const READY_REFRESH_MS = 15_000;
/**
 * How often it asks while detection is not (or the answer failed): the warning is cleared within seconds of the
 * indexer catching up, e.g. in the second after a server start, before its jobs run (decision 029).
 */
const UNHEALTHY_REFRESH_MS = 3_000;

/**
 * Whether the payment indexer reports healthy in GET /api/ready (every 15 s, every 3 s while it does not);
 * undefined until the first answer (or failure).
 */
export function useDetectionHealthy(): boolean | undefined {
  const ready = useQuery({
    queryKey: ["/api/ready"],
    queryFn: async ({ signal }) => {
      const response = await fetch("/api/ready", { signal });
      if (!response.ok) return false;
      const body = (await response.json()) as { indexer?: { healthy: boolean } };
      return body.indexer?.healthy === true;
    },
    refetchInterval: (query) => (query.state.data === true ? READY_REFRESH_MS : UNHEALTHY_REFRESH_MS),
    staleTime: 0,
  });
  return ready.isPending ? undefined : ready.data === true;
}
