import * as React from "react";
import { ClientOnly } from "@/components/client-only";
import { LazyToaster } from "@/components/ui/lazy-toaster";
import { ThemeProvider } from "@/features/theme/theme-provider";
import { lazyComponent } from "@/lib/lazy-component";

// Server data (TanStack Query, auth) is a lazy layer beside the shell (decision 006); this one starts it at once
// so that the user is fetched at start without the first paint waiting for it. Its import starts with the app, so
// it usually renders after hydration without suspending (lazyComponent).
const SessionStart = lazyComponent(() => import("./data-layer").then((m) => ({ default: m.SessionStart })));
SessionStart.preload().catch(() => {});

export function AppProviders({ children }: { children: React.ReactNode }) {
  return (
    <ThemeProvider>
      {children}
      <LazyToaster />
      {/* Absent from the server's HTML: it starts right after hydration (decision 017). */}
      <ClientOnly>
        <React.Suspense fallback={null}>
          <SessionStart />
        </React.Suspense>
      </ClientOnly>
    </ThemeProvider>
  );
}
