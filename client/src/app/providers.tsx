import * as React from "react";
import { LazyToaster } from "@/components/ui/lazy-toaster";
import { ThemeProvider } from "@/features/theme/theme-provider";
import { useHydrated } from "@/hooks/use-hydrated";

// Server data (TanStack Query, auth) is a lazy layer beside the shell (decision 006); this one starts it at once
// so that the user is fetched at start without the first paint waiting for it.
const SessionStart = React.lazy(() => import("./data-layer").then((m) => ({ default: m.SessionStart })));

export function AppProviders({ children }: { children: React.ReactNode }) {
  // Client-only: absent from the server's HTML, so it starts right after hydration (decision 017).
  const hydrated = useHydrated();
  return (
    <ThemeProvider>
      {children}
      <LazyToaster />
      {hydrated ? (
        <React.Suspense fallback={null}>
          <SessionStart />
        </React.Suspense>
      ) : null}
    </ThemeProvider>
  );
}
