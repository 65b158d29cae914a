import { QueryClientProvider } from "@tanstack/react-query";
import type * as React from "react";
import { queryClient } from "./query-client";

/**
 * The app's one query client, provided to a lazily loaded part of the tree. TanStack Query stays out of the entry
 * chunk (decision 006), so each lazy layer that reads server data mounts this; they all share one cache.
 */
export function QueryProvider({ children }: { children: React.ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
