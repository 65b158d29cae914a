import { StrictMode, startTransition, useEffect, useLayoutEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app/app";
import { prerenderedPageFor } from "./app/lazy-pages";
import { finishSocialPopup } from "./features/social/popup-complete";
import { installWeb3PopupGuard } from "./lib/web3-auth-gate";
import "./index.css";

declare global {
  interface Window {
    /** Set by index.html's inline script: stops holding taps and returns the buttons tapped before hydration. */
    __cpxtbHeldClicks?: () => HTMLButtonElement[];
  }
}

installWeb3PopupGuard();

const container = document.getElementById("root");
if (!container) throw new Error("Missing #root element in index.html");

/** Stops holding taps and returns those held (none when the page was not server-rendered). */
const takeHeldClicks = () => window.__cpxtbHeldClicks?.() ?? [];

function Root({ root }: { root: HTMLElement }) {
  // The server's HTML is now the app's own: the inline script stops holding taps on it.
  useLayoutEffect(() => root.removeAttribute("data-server-rendered"), [root]);
  // A tap that came before hydration is given to the hydrated button, once (decision 017).
  useEffect(() => {
    for (const button of takeHeldClicks()) if (button.isConnected) button.click();
  }, []);
  return (
    <StrictMode>
      <App />
    </StrictMode>
  );
}

// A content page arrives rendered by the server (decisions 009, 017). Its chunk (and data layer) is loaded first,
// so hydration finds every component of the server's markup at once and keeps that markup: the first paint is the
// final one. Hydration runs as a transition: it yields to the browser every few milliseconds instead of blocking
// it for the whole tree (total blocking time on phones).
const popup = finishSocialPopup();
const page =
  !popup && container.hasAttribute("data-server-rendered")
    ? prerenderedPageFor(window.location.pathname)
    : null;
if (page) {
  const hydrate = () => startTransition(() => void hydrateRoot(container, <Root root={container} />));
  page.preload().then(hydrate, hydrate);
} else if (!popup) {
  takeHeldClicks();
  createRoot(container).render(<Root root={container} />);
}
