/**
 * The pay button for any website (`/embed.js`, decision 035). No framework, no imports: the build minifies this
 * file alone into `dist/embed/embed.js`.
 *
 * Markup it turns into a "Pay with CPXTB" button (in the payer's language when the element is empty):
 *   <a data-cpxtb-link="{slug}"></a>            a payment link (each visit a fresh payment)
 *   <button data-cpxtb-payment="{reference}">   one payment request
 * A click opens the checkout in an overlay (an iframe) on a desktop, and as its own page (a new tab the checkout
 * reports back to) on a phone, where wallet apps and injected wallets expect a page of their own.
 *
 * The host page hears the outcome as DOM events on the element (they bubble to `document`):
 *   `cpxtb:result`  detail { result: "paid" | "expired" | "closed", reference, status }
 *   `cpxtb:status`  detail { reference, status } at each change of the payment's status
 * They come only from messages whose origin is this script's own (the checkout's) and whose window is the
 * checkout this script opened.
 */
import { directionOf } from "../../common/src/locale-direction";
import { type Locale, matchLocale } from "../../common/src/locales";
import ar from "../src/locales/ar/embed.json";
import de from "../src/locales/de/embed.json";
import en from "../src/locales/en/embed.json";
import es from "../src/locales/es/embed.json";
import fr from "../src/locales/fr/embed.json";
import id from "../src/locales/id/embed.json";
import ptBR from "../src/locales/pt-BR/embed.json";
import tr from "../src/locales/tr/embed.json";
import zhCN from "../src/locales/zh-CN/embed.json";

type Detail = { result?: string; reference?: string; status?: string };
type Words = typeof en;

/** The script's few words in every language (catalog area `embed`, checked with the app's by `npm test`). */
const WORDS: Record<Locale, Words> = { en, es, "pt-BR": ptBR, fr, de, tr, id, "zh-CN": zhCN, ar };

/**
 * The payer's language, as the checkout in the overlay picks it from the same browser (`Accept-Language`): the
 * first of the browser's languages we have, else English.
 */
function payerLocale(): Locale {
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const locale = matchLocale(tag);
    if (locale) return locale;
  }
  return "en";
}
type Open = {
  el: HTMLElement;
  target: () => Window | null;
  close: () => void;
  reference?: string;
  status?: string;
};

(() => {
  const w = window as unknown as { CpxtbPay?: unknown };
  const script = document.currentScript as HTMLScriptElement | null;
  if (w.CpxtbPay || !script?.src) return;
  const ORIGIN = new URL(script.src).origin;
  const PHONE = "(max-width: 640px)";
  const locale = payerLocale();
  const words = WORDS[locale];
  let current: Open | null = null;

  const css = (el: HTMLElement, style: Partial<CSSStyleDeclaration>) => Object.assign(el.style, style);
  const make = <K extends keyof HTMLElementTagNameMap>(tag: K, style: Partial<CSSStyleDeclaration> = {}) => {
    const el = document.createElement(tag);
    css(el, style);
    return el;
  };

  /** The checkout's address for the element; `embed` adds what the embedded checkout needs. */
  const checkoutUrl = (el: HTMLElement, embed: boolean): URL | null => {
    const link = el.getAttribute("data-cpxtb-link");
    const reference = el.getAttribute("data-cpxtb-payment");
    const path = link
      ? `/l/${encodeURIComponent(link)}`
      : reference
        ? `/pay/${encodeURIComponent(reference)}`
        : null;
    if (!path) return null;
    const url = new URL(path, ORIGIN);
    if (embed) {
      url.searchParams.set("embed", "1");
      url.searchParams.set("origin", location.origin);
    }
    return url;
  };

  const emit = (el: HTMLElement, type: string, detail: Detail) =>
    el.dispatchEvent(new CustomEvent(`cpxtb:${type}`, { bubbles: true, detail }));

  const finish = (result: string) => {
    const open = current;
    if (!open) return;
    current = null;
    open.close();
    emit(open.el, "result", { result, reference: open.reference, status: open.status });
    open.el.focus();
  };

  /** The overlay: a modal dialog holding the checkout's frame; focus stays inside it until it closes. */
  const overlay = (el: HTMLElement, url: URL): Open => {
    const root = make("div", {
      position: "fixed",
      inset: "0",
      zIndex: "2147483647",
      background: "rgba(0,0,0,.6)",
      display: "flex",
      alignItems: "center",
      justifyContent: "center",
      padding: "16px",
    });
    root.setAttribute("role", "dialog");
    root.setAttribute("aria-modal", "true");
    root.setAttribute("aria-label", words["embed.button"]);
    root.setAttribute("data-cpxtb-overlay", "");
    root.lang = locale;
    root.dir = directionOf(locale);
    const panel = make("div", {
      position: "relative",
      width: "100%",
      maxWidth: "480px",
      height: "min(760px, 100%)",
      display: "flex",
      flexDirection: "column",
      borderRadius: "12px",
      overflow: "hidden",
      background: "#0b1020",
      boxShadow: "0 20px 60px rgba(0,0,0,.5)",
    });
    const bar = make("div", {
      display: "flex",
      alignItems: "center",
      gap: "12px",
      // The title's side is the reader's start (physical values: older browsers lack the logical ones).
      padding: directionOf(locale) === "rtl" ? "4px 16px 4px 4px" : "4px 4px 4px 16px",
      color: "#fff",
      font: "600 14px/1.4 system-ui,sans-serif",
    });
    const title = make("span", { flex: "1" });
    title.textContent = words["embed.button"];
    const tab = make("a", { color: "#c7d4ff", fontWeight: "400" });
    tab.href = checkoutUrl(el, false)?.href ?? url.href;
    tab.target = "_blank";
    tab.rel = "noopener";
    tab.textContent = words["embed.openInTab"];
    const x = make("button", {
      width: "44px",
      height: "44px",
      border: "0",
      borderRadius: "8px",
      background: "transparent",
      color: "#fff",
      font: "24px/1 system-ui,sans-serif",
      cursor: "pointer",
    });
    x.type = "button";
    x.setAttribute("aria-label", words["embed.close"]);
    x.textContent = "×";
    x.addEventListener("click", () => finish("closed"));
    const frame = make("iframe", { flex: "1", width: "100%", border: "0", background: "#fff" });
    frame.title = words["embed.frameTitle"];
    frame.src = url.href;
    frame.allow = "clipboard-write";
    bar.append(title, tab, x);
    panel.append(bar, frame);
    // Tab past the last control comes back to the first, and Shift+Tab before the first goes to the last.
    const guard = (to: () => HTMLElement) => {
      const g = make("span");
      g.tabIndex = 0;
      g.addEventListener("focus", () => to().focus());
      return g;
    };
    root.append(
      guard(() => frame),
      panel,
      guard(() => tab),
    );
    root.addEventListener("click", (event) => {
      if (event.target === root) finish("closed");
    });
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        finish("closed");
      }
    };
    // Everything else on the page is out of reach (inert) while the dialog is open, and does not scroll.
    const others = Array.from(document.body.children).filter(
      (node): node is HTMLElement => node instanceof HTMLElement && !node.inert,
    );
    for (const node of others) node.inert = true;
    const overflow = document.documentElement.style.overflow;
    document.documentElement.style.overflow = "hidden";
    document.addEventListener("keydown", onKey, true);
    document.body.append(root);
    x.focus();
    return {
      el,
      target: () => frame.contentWindow,
      close() {
        document.removeEventListener("keydown", onKey, true);
        for (const node of others) node.inert = false;
        document.documentElement.style.overflow = overflow;
        root.remove();
      },
    };
  };

  /** On a phone: the checkout as a page of its own (a new tab that reports back), or this tab if none opens. */
  const page = (el: HTMLElement, url: URL): Open | null => {
    const popup = window.open(url.href, "_blank");
    if (!popup) {
      location.assign(url.href);
      return null;
    }
    const timer = setInterval(() => {
      if (popup.closed) finish("closed");
    }, 500);
    return {
      el,
      target: () => popup,
      close() {
        clearInterval(timer);
        if (!popup.closed) popup.close();
      },
    };
  };

  const open = (el: HTMLElement) => {
    const url = checkoutUrl(el, true);
    if (!url) return;
    if (current) finish("closed");
    current = matchMedia(PHONE).matches ? page(el, url) : overlay(el, url);
    // A payment's reference is known from the start; a link's comes with the checkout's first message.
    if (current) current.reference = el.getAttribute("data-cpxtb-payment") ?? undefined;
  };

  window.addEventListener("message", (event) => {
    const data = event.data as (Detail & { source?: string; type?: string }) | null;
    if (event.origin !== ORIGIN || !current || event.source !== current.target()) return;
    if (data?.source !== "cpxtb-pay") return;
    if (data.type === "close") return finish("closed");
    if (data.type !== "status" && data.type !== "result") return;
    current.reference = data.reference;
    current.status = data.status;
    if (data.type === "status")
      emit(current.el, "status", { reference: data.reference, status: data.status });
    else emit(current.el, "result", { result: data.result, reference: data.reference, status: data.status });
  });

  const enhance = (el: HTMLElement) => {
    if (el.hasAttribute("data-cpxtb-ready")) return;
    const url = checkoutUrl(el, false);
    if (!url) return;
    el.setAttribute("data-cpxtb-ready", "");
    // An element the merchant left empty gets the label in the payer's language; their own words stay theirs.
    if (!el.textContent?.trim()) {
      el.textContent = words["embed.button"];
      el.lang = locale;
      el.dir = directionOf(locale);
    }
    if (el instanceof HTMLAnchorElement) el.href = url.href;
    else if (el instanceof HTMLButtonElement && !el.getAttribute("type")) el.type = "button";
    el.setAttribute("aria-haspopup", "dialog");
    if (!el.className) {
      css(el, {
        display: "inline-flex",
        alignItems: "center",
        minHeight: "44px",
        padding: "0 20px",
        border: "0",
        borderRadius: "8px",
        background: "#2f5bd3",
        color: "#fff",
        font: "600 16px/1 system-ui,sans-serif",
        textDecoration: "none",
        cursor: "pointer",
      });
    }
    el.addEventListener("click", (event) => {
      // A link opened in a new tab or window with a modifier stays the browser's.
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      open(el);
    });
  };

  const scan = (root: ParentNode = document) => {
    for (const el of Array.from(root.querySelectorAll<HTMLElement>("[data-cpxtb-link],[data-cpxtb-payment]")))
      enhance(el);
  };

  w.CpxtbPay = { version: 1, scan, open };
  const start = () => {
    scan();
    // Buttons a page adds later (a cart rendered by a framework) are found too.
    new MutationObserver(() => scan()).observe(document.body, { childList: true, subtree: true });
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
