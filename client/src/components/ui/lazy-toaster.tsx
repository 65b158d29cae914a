import * as React from "react";
import { useToast } from "@/hooks/use-toast";
import { whenIdle } from "@/lib/preload";

const loadToaster = () => import("./toaster");
const Toaster = React.lazy(() => loadToaster().then((m) => ({ default: m.Toaster })));

/**
 * Mounts the Radix toast viewport (an ARIA live region, F8 to focus) in idle time, or at once when a toast is
 * raised before that, so its code stays out of the entry chunk.
 */
export function LazyToaster() {
  const { toasts } = useToast();
  const [idle, setIdle] = React.useState(false);
  React.useEffect(() => whenIdle(() => setIdle(true)), []);
  if (!idle && toasts.length === 0) return null;
  return (
    <React.Suspense fallback={null}>
      <Toaster />
    </React.Suspense>
  );
}
