import { Menu } from "lucide-react";
import * as React from "react";
import { useLocation } from "wouter";
import { buttonVariants } from "@/components/ui/button-variants";
import { serverPrefetches, whenIdle } from "@/lib/preload";

// The panel shows the Account group, so it comes with the server-data layer (decision 006).
const loadPanel = () =>
  Promise.all([import("./side-menu-panel"), import("./data-layer")]).then(([panel, data]) => ({
    default: data.withDataProviders(panel.default),
  }));
const SideMenuPanel = React.lazy(loadPanel);

/**
 * Spec section 2: the menu button fixed at the top left opens a slide-out menu from the left.
 * The button is in the entry chunk; the panel (Radix Dialog, links, icons) loads in idle time or on first open.
 */
export function SideMenu({ label }: { label: string }) {
  const [location] = useLocation();
  // Open at one location: any navigation (back/forward, redirects) closes it by moving away from that location.
  // Not an effect that closes on a location change: such an effect also runs once at mount, and a tap that comes
  // between a hydration's commit and its (deferred) effects was undone by it (issue 38).
  const [openAt, setOpenAt] = React.useState<string | null>(null);
  const open = openAt === location;
  const [mounted, setMounted] = React.useState(false);
  const buttonRef = React.useRef<HTMLButtonElement>(null);

  // A server-rendered page lets the browser prefetch the panel instead (fetched, run on first open; decision 009).
  React.useEffect(
    () =>
      serverPrefetches("side-menu") ? undefined : whenIdle(() => void loadPanel().catch(() => undefined)),
    [],
  );

  const openMenu = () => {
    setMounted(true);
    setOpenAt(location);
  };
  const onOpenChange = React.useCallback((next: boolean) => setOpenAt(next ? location : null), [location]);

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={buttonVariants({ variant: "floating", size: "icon" })}
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={openMenu}
        data-testid="menu-button"
      >
        <Menu className="size-5" aria-hidden="true" />
      </button>
      {mounted ? (
        <React.Suspense fallback={null}>
          <SideMenuPanel open={open} onOpenChange={onOpenChange} returnFocusTo={buttonRef} />
        </React.Suspense>
      ) : null}
    </>
  );
}
