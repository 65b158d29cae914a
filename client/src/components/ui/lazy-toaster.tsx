import * as React from "react";
import { useToastPresent } from "@/hooks/toast-present";

const loadToaster = () => import("./toaster");
const Toaster = React.lazy(() => loadToaster().then((m) => ({ default: m.Toaster })));

/**
 * Mounts the Radix toast viewport (the "Notifications (F8)" region) with the first toast and keeps it from then
 * on, so no page loads its code (Radix Toast, tailwind-merge) before it has something to show: mounted in idle
 * time, it was some 100 ms of a phone's main thread on every page load. Radix announces each toast through a
 * live region of its own, created when the toast opens, so the first one is announced too.
 */
export function LazyToaster() {
  // The toasts' own store (use-toast.ts) is not in the shell: only whether one is on screen.
  const present = useToastPresent();
  const [needed, setNeeded] = React.useState(false);
  if (!needed && present) setNeeded(true);
  if (!needed && !present) return null;
  return (
    <React.Suspense fallback={null}>
      <Toaster />
    </React.Suspense>
  );
}
