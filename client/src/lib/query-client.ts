import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "./api-client";

const DAY_MS = 24 * 60 * 60 * 1000;
export const MEMORY_CLEAN_INTERVAL_MS = 5 * 60 * 1000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        retry: false,
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        gcTime: DAY_MS,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

/** Drops every cached query no component is watching. Returns how many were removed. */
export function removeUnusedQueries(client: QueryClient): number {
  const cache = client.getQueryCache();
  const unused = cache.getAll().filter((query) => query.getObserversCount() === 0);
  for (const query of unused) cache.remove(query);
  return unused.length;
}

/**
 * With a 24 h cache lifetime, long-open tabs (a merchant's counter screen) would accumulate data;
 * this routine keeps only what is on screen. Returns a function that stops it.
 */
export function startMemoryClean(client: QueryClient, intervalMs = MEMORY_CLEAN_INTERVAL_MS): () => void {
  const timer = setInterval(() => removeUnusedQueries(client), intervalMs);
  return () => clearInterval(timer);
}
