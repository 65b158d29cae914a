import { StrictMode, startTransition, useEffect, useLayoutEffect } from "react";
import type { createRoot, hydrateRoot } from "react-dom/client";
import { nextTask } from "@/lib/next-task";
import { App } from "./app";
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

/** React marks every DOM node it has hydrated or rendered with its props: before that, a click finds no handler. */
const isLive = (node: Element) => Object.keys(node).some((key) => key.startsWith("__reactProps$"));

/**
 * The button a held tap belongs to now: the same node, or, when React rendered that part again instead of
 * hydrating it (an update came during hydration), the one button that has the same id, test id or label.
 */
function counterpart(root: HTMLElement, held: HTMLButtonElement): HTMLButtonElement | null {
  if (held.isConnected) return held;
  const same = (a: string | null, b: string | null) => a !== null && a !== "" && a === b;
  const label = (b: HTMLButtonElement) => b.getAttribute("aria-label") ?? b.textContent?.trim() ?? null;
  const matches = [...root.querySelectorAll("button")].filter(
    (b) =>
      same(b.id, held.id) ||
      same(b.getAttribute("data-testid"), held.getAttribute("data-testid")) ||
      same(label(b), label(held)),
  );
  return matches.length === 1 ? matches[0]! : null;
}

/**
 * Clicks each held button once it is live (parts of the page can hydrate after the root's first commit), for at
 * most 10 s; a button that is disabled by then (an action under way) is not clicked.
 */
function replayHeldClicks(root: HTMLElement, held: HTMLButtonElement[]) {
  const until = performance.now() + 10_000;
  let pending = held;
  const tick = () => {
    pending = pending.filter((button) => {
      const target = counterpart(root, button);
      if (!target || !isLive(target)) return true;
      if (!target.disabled) target.click();
      return false;
    });
    if (pending.length > 0 && performance.now() < until) setTimeout(tick, 50);
  };
  tick();
}

function Root({ root }: { root: HTMLElement }) {
  // The server's HTML is now the app's own: the inline script stops holding taps on it.
  useLayoutEffect(() => root.removeAttribute("data-server-rendered"), [root]);
  // A tap that came before hydration is given to the hydrated button, once (decision 017).
  useEffect(() => replayHeldClicks(root, takeHeldClicks()), [root]);
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
