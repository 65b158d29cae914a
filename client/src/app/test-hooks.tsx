import { useEffect } from "react";
import { useSearch } from "wouter";
import type { toast } from "@/hooks/use-toast";
import { testHooksEnabled } from "./test-hooks-enabled";

/**
 * Hooks for the Playwright suite. They are inert for real users: they act only in non-production builds, or when
 * localStorage "cpxtb-pay-e2e" is "1" (the e2e fixtures set it before the page loads; a visitor would have to set
 * it by hand, and it only lets them break or toast their own tab).
 * - `?__throw=render` makes a component throw while rendering, to exercise the generic error screen.
 * - `window.__cpxtbToast` is the toast function, to check toast replacement without signing in.
 * This module is loaded only where they act (app-layout.tsx): a visitor's browser never fetches it.
 */
declare global {
  interface Window {
    __cpxtbToast?: typeof toast;
  }
}

export function TestHooks() {
  const search = useSearch();
  const enabled = testHooksEnabled();

  useEffect(() => {
    if (!enabled) return;
    // Loaded here, not imported: the toast store stays out of the shell every page loads (issue 39).
    let active = true;
    void import("@/hooks/use-toast").then((m) => {
      if (active) window.__cpxtbToast = m.toast;
    });
    return () => {
      active = false;
      delete window.__cpxtbToast;
    };
  }, [enabled]);

  if (enabled && new URLSearchParams(search).get("__throw") === "render") {
    throw new Error("Render error requested by the __throw=render test hook");
  }
  return null;
}
