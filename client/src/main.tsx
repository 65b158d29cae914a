import { socialStateAtStart } from "./features/social/social-keys";
import { nextTask } from "./lib/next-task";
import { installWeb3PopupGuard } from "./lib/web3-auth-gate";
import "./index.css";
// The articles' typography (blog posts, legal pages) is in the entry's stylesheet, which the server puts inline in
// the pages it renders: a post is painted with it, not laid out again when its route's code arrives (issue 39).
import "./components/content/prose.css";

installWeb3PopupGuard();
// Before anything can be clicked: whether this page finishes a social login (social-keys.ts).
socialStateAtStart();

const container = document.getElementById("root");
if (!container) throw new Error("Missing #root element in index.html");

/**
 * The app starts in steps, each evaluated in a task of its own: React DOM, then the app's shell (app/boot.tsx),
 * then the page's code, then hydration (issue 39, decision 036). Evaluated at once, as one module graph, they were
 * one task of some 160-270 ms on a phone-speed CPU right after the first paint, during which a tap waited. The
 * build's modulepreload links (vite.config.ts, `bootPreload`) fetch both chunks beside this one, so the steps
 * wait for no extra round trip.
 */
async function start(root: HTMLElement) {
  await nextTask();
  const dom = await import("react-dom/client");
  await nextTask();
  const { startApp } = await import("./app/boot");
  await nextTask();
  startApp(root, dom);
}

void start(container);
