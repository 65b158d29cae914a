import { StrictMode, startTransition, useLayoutEffect } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { prerenderedPageFor } from "./app/lazy-pages";
import { finishSocialPopup } from "./features/social/popup-complete";
import { installWeb3PopupGuard } from "./lib/web3-auth-gate";
import "./index.css";

installWeb3PopupGuard();

const container = document.getElementById("root");
if (!container) throw new Error("Missing #root element in index.html");

/** Marks the moment the app's own DOM replaced the server's (index.css styles the server's buttons by it). */
function Root({ root }: { root: HTMLElement }) {
  useLayoutEffect(() => root.removeAttribute("data-server-rendered"), [root]);
  return (
    <StrictMode>
      <App />
    </StrictMode>
  );
}

const root = finishSocialPopup() ? null : createRoot(container);
const render = () => root?.render(<Root root={container} />);

// A content page arrives rendered by the server (decision 009). Its chunk (and data layer) is loaded first, so the
// first commit replaces that HTML with the same content in one step: no loading state, no layout shift. The
// server's HTML is on screen meanwhile, so that render runs as a transition: it yields to the browser every few
// milliseconds instead of blocking it for the whole tree (total blocking time on phones).
const page =
  root && container.hasAttribute("data-server-rendered")
    ? prerenderedPageFor(window.location.pathname)
    : null;
if (page) {
  const renderInBackground = () => startTransition(render);
  page.preload().then(renderInBackground, renderInBackground);
} else if (root) {
  render();
}
