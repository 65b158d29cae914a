import * as React from "react";
import { useHydrated } from "@/hooks/use-hydrated";

/**
 * Renders its children only in the browser, from the render after hydration (decision 017). Only this component
 * renders again when hydration ends, not the parent that placed it: a parent that called `useHydrated` itself
 * would re-render its whole subtree in one synchronous task.
 */
export function ClientOnly({ children }: { children: React.ReactNode }) {
  // React re-renders with the browser's value right after hydration, synchronously; the children (the session
  // starter, the live users widget, each with its providers) mount in the background render that follows instead,
  // in slices of a few milliseconds (decision 025).
  return React.useDeferredValue(useHydrated()) ? children : null;
}
