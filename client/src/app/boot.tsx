import { StrictMode, startTransition, useEffect, useLayoutEffect } from "react";
import type { createRoot, hydrateRoot } from "react-dom/client";
// First, before the router adds its own listener: Back and Forward are heard here before the router moves.
import "@/lib/back-guard";
import { nextTask } from "@/lib/next-task";
import { whenIdle } from "@/lib/preload";
import { App } from "./app";
import { preloadErrorScreen } from "./error-boundary";
import { prerenderedPageFor } from "./lazy-pages";
import { pageFor } from "./router";

declare global {
  interface Window {
    /** Set by index.html's inline script: stops holding taps and returns the buttons tapped before hydration. */
    __cpxtbHeldClicks?: () => HTMLButtonElement[];
  }
}

/** Stops holding taps and returns those held (none when the page was not server-rendered). */
const takeHeldClicks = () => window.__cpxtbHeldClicks?.() ?? [];

function Root({ root }: { root: HTMLElement }) {
  // The server's HTML is now the app's own: the inline script stops holding taps on it.
  useLayoutEffect(() => root.removeAttribute("data-server-rendered"), [root]);
  // A tap that came before hydration is given to the hydrated button, once (decision 017). The replay's code is
  // loaded only when there is a tap to replay: most pages hydrate before anyone taps (decision 036).
  useEffect(() => {
    const held = takeHeldClicks();
    if (held.length > 0)
      void import("./held-clicks").then(({ replayHeldClicks }) => replayHeldClicks(root, held));
  }, [root]);
  // The error screen is not in the shell (error-boundary.tsx): fetched in idle time, it is ready when needed.
  useEffect(() => whenIdle(preloadErrorScreen), []);
  return (
    <StrictMode>
      <App />
    </StrictMode>
  );
}

/** React DOM's two ways in, from its own chunk (main.tsx loads it in a task of its own). */
export type ReactDomClient = { createRoot: typeof createRoot; hydrateRoot: typeof hydrateRoot };

/**
 * Renders the app into `container` (main.tsx calls it once React DOM and this module have been evaluated, each in
 * a task of its own: issue 39, decision 036).
 * A content page arrives rendered by the server (decisions 009, 017). Its chunk (and data layer) is loaded first,
 * so hydration finds every component of the server's markup at once and keeps that markup: the first paint is the
 * final one. Hydration starts in a task after the one that evaluated the page's code, and runs as a transition: it
 * yields to the browser every few milliseconds instead of blocking it for the whole tree (total blocking time on
 * phones).
 * Any other page is also loaded before the first render: a first render that suspends shows the page's fallback,
 * and React then holds the page back until 300 ms after that fallback appeared (it throttles fallbacks), which was
 * a quarter of a second of a fast machine's dashboard load spent idle (decision 023).
 */
export function startApp(container: HTMLElement, dom: ReactDomClient) {
  const path = window.location.pathname;
  const prerendered = container.hasAttribute("data-server-rendered") ? prerenderedPageFor(path) : null;
  if (prerendered) {
    const hydrate = () =>
      nextTask().then(() =>
        startTransition(() => void dom.hydrateRoot(container, <Root root={container} />)),
      );
    void prerendered.preload().then(hydrate, hydrate);
  } else {
    takeHeldClicks();
    // A failed load is rendered too: the page's error boundary shows it.
    const render = () => dom.createRoot(container).render(<Root root={container} />);
    void pageFor(path).preload().then(render, render);
  }
}
