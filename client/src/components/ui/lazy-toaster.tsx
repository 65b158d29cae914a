import * as React from "react";
import { useToast } from "@/hooks/use-toast";

const loadToaster = () => import("./toaster");
const Toaster = React.lazy(() => loadToaster().then((m) => ({ default: m.Toaster })));

/**
 * Mounts the Radix toast viewport (the "Notifications (F8)" region) with the first toast and keeps it from then
 * on, so no page loads its code (Radix Toast, tailwind-merge) before it has something to show: mounted in idle
 * time, it was some 100 ms of a phone's main thread on every page load. Radix announces each toast through a
 * live region of its own, created when the toast opens, so the first one is announced too.
 */
export function LazyToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = React.useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed && toasts.length === 0) return null;
  return (
    <React.Suspense fallback={null}>
      <Toaster />
    </React.Suspense>
  );
}
