import { SERVER_NOW_KEY } from "@common/payment-values";
import * as React from "react";
import { useHydrated } from "@/hooks/use-hydrated";
import { queryClient } from "@/lib/query-client";

/**
 * The current time, re-read every `intervalMs` (countdowns). While a server-rendered page hydrates it is the
 * moment the server rendered it (in the page's data), so the countdown hydrates unchanged; then the clock's.
 */
export function useNow(intervalMs = 1000): number {
  const hydrated = useHydrated();
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  if (hydrated) return now;
  return queryClient.getQueryData<number>([SERVER_NOW_KEY]) ?? now;
}
