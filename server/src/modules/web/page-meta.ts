import { brotliCompressSync, gzipSync } from "node:zlib";
import { directionOf, type Locale } from "@common/locales.ts";
import {
  formatPageTitle,
  type PageMeta,
  SITE_NAME,
  SOCIAL_IMAGE_SIZE,
  socialImagePath,
} from "@common/page-meta.ts";
import type { IndexHtml } from "./index-html.ts";

/** Escapes text for an HTML attribute value or element content. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** The head tags of one page: the same set the client's head manager keeps up to date on navigation. */
export function renderHeadTags(meta: PageMeta, url: string, origin: string): string {
  const title = formatPageTitle(meta.title);
  const image = new URL(socialImagePath(meta.image), origin).toString();
  const tags: [string, string, string][] = [
    ["name", "description", meta.description],
    ["property", "og:site_name", SITE_NAME],
    ["property", "og:type", meta.type ?? "website"],
    ["property", "og:title", title],
    ["property", "og:description", meta.description],
    ["property", "og:url", url],
    ["property", "og:image", image],
    ["property", "og:image:type", "image/png"],
    ["property", "og:image:width", String(SOCIAL_IMAGE_SIZE.width)],
    ["property", "og:image:height", String(SOCIAL_IMAGE_SIZE.height)],
    ["name", "twitter:card", "summary_large_image"],
    ["name", "twitter:title", title],
    ["name", "twitter:description", meta.description],
    ["name", "twitter:image", image],
  ];
  return [
    `<title>${escapeHtml(title)}</title>`,
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    ...tags.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`),
  ].join("\n    ");
}

const TITLE = /<title>[\s\S]*?<\/title>/i;
const DESCRIPTION = /<meta\s+name="description"[\s\S]*?>/i;

const EMPTY_ROOT = /<div id="root"><\/div>/;
const HTML_TAG = /<html(?=[\s>])/i;
/** The app's code in index.html: the entry's module script and the modulepreload links of its imports. */
const APP_CODE = /\n\s*(<script type="module"[^>]*><\/script>|<link rel="modulepreload"[^>]*>)/g;

/** JSON that is safe inside a <script> element: no `</script>`, no `<!--`, no line separators. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The page the server rendered (decision 009): the markup inside #root and the query data it was rendered with. */
export type RenderedBody = { markup: string; data: Record<string, unknown> };

/**
 * What the server adds to a page's HTML beyond its head tags: its rendered body, extra head elements (for a
 * rendered page they wait with the app's code), and elements its first paint uses (always in the head).
 */
export type PageExtras = { body?: RenderedBody; head?: string; preload?: string; locale?: Locale };

const HTML_LANG = /<html lang="[^"]*"(?: dir="[^"]*")?/i;

/**
 * index.html with the page's own title, description and social tags in place of the generic ones and, for a page
 * rendered on the server, its markup in #root plus its data as JSON (not a script the browser runs: no CSP hash),
 * and the app's stylesheet inline: the markup is painted as soon as the HTML has arrived, where a `<link>` made the
 * first paint wait for one more request (some 180 ms on Lighthouse's mobile network). The whole sheet rather than
 * the rules this markup uses: about 10 KB compressed, and the app that hydrates the page goes on to render other
 * pages with the same sheet, with no second download and no unstyled moment.
 * The app's code (its module script, modulepreload links and the page's prefetch links) waits in
 * `<template id="after-paint">`, which index.html's inline script inserts once the page has painted: on a phone's
 * network the first paint and the page's images do not share the line with some 90 KB of JavaScript, and a tap
 * before hydration is held and replayed (decision 023). The session is asked for then too (`data-code-after-paint`).
 */
export function pageHtmlText(
  index: IndexHtml,
  meta: PageMeta,
  url: string,
  origin: string,
  { body, head, preload, locale }: PageExtras = {},
): string {
  let html = index.identity
    .toString("utf8")
    .replace(DESCRIPTION, "")
    .replace(TITLE, () => renderHeadTags(meta, url, origin));
  // A page in its reader's language (decision 038): the browser hydrates it in the language it says.
  if (locale)
    html = html.replace(
      HTML_LANG,
      `<html lang="${locale}" dir="${directionOf(locale)}" data-locale-rendered`,
    );
  const addToHead = (elements: string) => html.replace("</head>", () => `  ${elements}\n  </head>`);
  if (preload) html = addToHead(preload);
  if (!body) return head ? addToHead(head) : html;
  const { stylesheet } = index;
  // The sheet's link stays, disabled (neither fetched nor applied): the app's module loader looks for it before it
  // adds the stylesheets a lazy chunk lists, and without it added this same sheet again after the first paint,
  // which restyled and laid out the whole page (some 110 ms at a phone's CPU speed; issue 39).
  if (stylesheet)
    html = html.replace(
      stylesheet.tag,
      () => `<style>${stylesheet.css}</style>${stylesheet.tag.replace(/>$/, " disabled>")}`,
    );
  const code: string[] = [];
  html = html.replace(APP_CODE, (_line, tag: string) => {
    code.push(tag);
    return "";
  });
  if (head) code.push(head);
  // index.html's first inline script reads it: this page asks for the session with its code, after it has painted.
  html = html.replace(HTML_TAG, "<html data-code-after-paint");
  return html.replace(
    EMPTY_ROOT,
    () =>
      `<div id="root" data-server-rendered>${body.markup}</div>\n    <script type="application/json" id="server-data">${scriptSafeJson(body.data)}</script>\n    <template id="after-paint">${code.join("")}</template>`,
  );
}

/** index.html with `head` added to its head (a page the client renders), compressed once in every encoding. */
export function withHeadElements(index: IndexHtml, head: string): IndexHtml {
  const identity = Buffer.from(
    index.identity.toString("utf8").replace("</head>", () => `  ${head}\n  </head>`),
  );
  return { ...index, identity, br: brotliCompressSync(identity), gzip: gzipSync(identity) };
}

/** `pageHtmlText`, compressed once in every encoding: for a page served many times as it is (cached). */
export function withPageMeta(
  index: IndexHtml,
  meta: PageMeta,
  url: string,
  origin: string,
  extras: PageExtras = {},
): IndexHtml {
  const identity = Buffer.from(pageHtmlText(index, meta, url, origin, extras), "utf8");
  return {
    identity,
    br: brotliCompressSync(identity),
    gzip: gzipSync(identity),
    inlineScriptHashes: index.inlineScriptHashes,
  };
}

/**
 * Rendered pages by origin and path. Bounded: the origin comes from the Host header when PUBLIC_URL is unset,
 * so a client could otherwise grow it without limit.
 */
export class PageHtmlCache<T = IndexHtml> {
  private readonly entries = new Map<string, T>();
  constructor(private readonly max = 256) {}

  get(key: string, render: () => T): T {
    const hit = this.entries.get(key);
    if (hit) return hit;
    const value = render();
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, value);
    return value;
  }
}
