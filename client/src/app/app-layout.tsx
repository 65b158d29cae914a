import * as React from "react";
import { Link, useLocation, useSearch } from "wouter";
import { ClientOnly } from "@/components/client-only";
import { Spinner } from "@/components/ui/spinner";
import { ThemeToggle } from "@/features/theme/theme-toggle";
import { WalletControl } from "@/features/wallet/wallet-control";
import { useShellWords } from "@/i18n/shell-words";
import { lazyComponent } from "@/lib/lazy-component";
import { ErrorBoundary } from "./error-boundary";
import { AppRouter } from "./router";
import { SideMenu } from "./side-menu";
import { testHooksEnabled } from "./test-hooks-enabled";

// The widget appears only once the socket is open, so it can come a moment later. Its import starts when the header
// first renders (hydration included), not at module load: a checkout has no header and does not fetch it.
// lazyComponent: rendered after hydration without suspending, once loaded.
// The words of the frame's lazy parts come as one chunk, fetched beside the first of them: a module they only
// imported statically would be copied into each of their chunks (decision 023), its English words six times over.
const siteWords = () => import("@/i18n/site-words");
const LiveUsersWidget = lazyComponent(() =>
  Promise.all([import("@/features/live-users/live-users-widget"), siteWords()]).then(([m]) => ({
    default: m.LiveUsersWidget,
  })),
);
// The footer's language menu, below the fold: its code and the languages' names come after hydration, out of the
// eager JavaScript of `/` (its budget).
const SiteLanguageMenu = lazyComponent(() =>
  Promise.all([import("./site-language-menu"), siteWords()]).then(([m]) => ({ default: m.SiteLanguageMenu })),
);

function PageFallback() {
  const { words } = useShellWords();
  return (
    <div className="flex min-h-[60vh] animate-delayed-fade-in items-center justify-center">
      <Spinner size="lg" label={words["shell.loading"]} />
    </div>
  );
}

function SkipLink() {
  const { words, attributes } = useShellWords();
  return (
    <a
      href="#main"
      {...attributes}
      className="sr-only z-[60] rounded-md bg-primary px-4 py-3 text-primary-foreground focus:not-sr-only focus:fixed focus:start-16 focus:top-3"
    >
      {words["shell.skip"]}
    </a>
  );
}

/** The header's controls: the side menu, the home link, the live count, the theme and the wallet. */
function SiteHeader() {
  const { words, attributes } = useShellWords();
  return (
    <header
      {...attributes}
      className="fixed inset-x-0 top-0 z-40 flex h-16 items-center justify-between gap-2 border-border/60 border-b bg-background/80 px-3 backdrop-blur-md supports-[backdrop-filter]:bg-background/65 sm:px-4"
    >
      <div className="flex items-center gap-2">
        <SideMenu label={words["shell.menu"]} />
        <Link
          href="/"
          className="flex h-11 items-center gap-2 rounded-md px-2 font-semibold outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
        >
          <img src="/favicon.svg" alt="" width={28} height={28} className="size-7" />
          <span className="sr-only sm:not-sr-only">CPXTB Pay</span>
        </Link>
      </div>
      {/* Spans to the brand and packs to the end: the live count appearing after hydration moves nothing. */}
      <div className="flex flex-1 items-center justify-end gap-2" data-testid="top-right-controls">
        <ClientOnly>
          <React.Suspense fallback={null}>
            <LiveUsersWidget />
          </React.Suspense>
        </ClientOnly>
        <ThemeToggle labels={{ dark: words["shell.dark"], light: words["shell.light"] }} />
        <WalletControl words={{ connect: words["shell.connect"], connecting: words["shell.connecting"] }} />
      </div>
    </header>
  );
}

/**
 * A checkout (one payment shown to its payer) is the merchant's page: the app's header (menu, live count, wallet
 * menu) is left out and the page draws a minimal header of its own (the merchant and the theme toggle).
 */
export function isCheckoutPath(location: string, search: string): boolean {
  if (/^\/(pay|payment|l)\/[^/]+\/?$/i.test(location)) return true;
  const ref = new URLSearchParams(search).get("ref")?.trim() ?? "";
  // PAYMENT_REFERENCE_PATTERN's shape (common/payment-values.ts), written out: that module is not in the shell.
  return /^\/easy-payment\/?$/i.test(location) && /^[A-Za-z0-9_-]{22,64}$/.test(ref);
}

/** The Playwright suite's hooks, fetched only in a tab where they act (test-hooks-enabled.ts): not in the shell. */
const TestHooks = lazyComponent(() => import("./test-hooks").then((m) => ({ default: m.TestHooks })));

export function AppLayout() {
  const [location] = useLocation();
  // The counter (/pos) is full screen too: a phone or tablet facing the customer (decision 033).
  const counter = /^\/pos\/?$/i.test(location);
  const checkout = isCheckoutPath(location, useSearch()) || counter;
  // Starts (once) the import, beside hydration rather than after it: the widget is rendered after hydration.
  if (!checkout) {
    LiveUsersWidget.preload().catch(() => {});
    SiteLanguageMenu.preload().catch(() => {});
  }
  return (
    <div className="flex min-h-dvh flex-col">
      {/* A checkout is in its payer's language and has its own footer: nothing of the site around it. */}
      {checkout ? null : <SkipLink />}
      {/* Not rendered on a checkout, rather than hidden: its menu, live count and wallet menu would each load
            their code there (the menu's panel alone was ~25 KB of the pay page's scripts) for nothing the payer
            can see. */}
      {checkout ? null : <SiteHeader />}
      {/* At least a screen tall: the footer starts below the fold, so a page arriving lazily shifts nothing. */}
      <main id="main" tabIndex={-1} className={`min-h-dvh flex-1 outline-none ${checkout ? "" : "pt-16"}`}>
        {/* Keyed by location so that leaving a broken page clears the error. */}
        <ErrorBoundary key={location}>
          <ClientOnly>{testHooksEnabled() ? <TestHooks /> : null}</ClientOnly>
          <React.Suspense fallback={<PageFallback />}>
            <AppRouter />
          </React.Suspense>
        </ErrorBoundary>
      </main>
      {/* The counter fills the device's screen; a checkout has its own footer (with its language menu). */}
      {checkout ? null : <SiteFooter />}
    </div>
  );
}

function SiteFooter() {
  const { words, attributes } = useShellWords();
  return (
    <footer {...attributes} className="border-border border-t">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-muted-foreground text-sm sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>{words["shell.tagline"]}</p>
        <nav aria-label={words["shell.footer"]} className="-mx-2 flex flex-wrap">
          {[
            ["/privacy-policy", words["shell.privacy"]],
            ["/terms-of-service", words["shell.terms"]],
            ["/contact", words["shell.contact"]],
          ].map(([href, label]) => (
            <Link
              key={href}
              href={href as string}
              className="inline-flex min-h-11 items-center rounded-md px-2 outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60"
            >
              {label}
            </Link>
          ))}
        </nav>
        <ClientOnly>
          <React.Suspense fallback={null}>
            <SiteLanguageMenu />
          </React.Suspense>
        </ClientOnly>
      </div>
    </footer>
  );
}
