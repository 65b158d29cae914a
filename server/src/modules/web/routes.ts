import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";
import type { Locale, MessageArea } from "@common/locales.ts";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type IndexHtml, negotiateEncoding, prepareIndexHtml } from "./index-html.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";

/** Loads the built client, or null when there is none (API-only tests, or `npm run dev` where Vite serves it). */
export function loadClientBuild(clientDist: string): IndexHtml | null {
  const indexPath = join(clientDist, "index.html");
  if (!existsSync(indexPath)) return null;
  const html = readFileSync(indexPath, "utf8");
  return { ...prepareIndexHtml(html), stylesheet: readStylesheet(clientDist, html) };
}

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*\bhref="\/(assets\/[\w.-]+\.css)"[^>]*>/;

/** The entry's one stylesheet (Vite links it from index.html), unless it could not sit in a `<style>` as it is. */
function readStylesheet(clientDist: string, html: string): IndexHtml["stylesheet"] {
  const link = STYLESHEET_LINK.exec(html);
  const path = link?.[1] ? join(clientDist, link[1]) : null;
  if (!link || !path || !existsSync(path)) return undefined;
  const css = readFileSync(path, "utf8");
  return /<\/style/i.test(css) ? undefined : { tag: link[0], css };
}

type ManifestChunk = {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  isEntry?: boolean;
};

/**
 * The files of the chunks (and their stylesheets) of the given source modules (Vite manifest keys such as
 * `src/app/routes/merchant.tsx`) that the entry does not already load. Empty without a manifest.
 */
function chunkFilesBeyondEntry(clientDist: string, sources: string[]): string[] {
  const manifestPath = join(clientDist, ".vite", "manifest.json");
  if (!existsSync(manifestPath)) return [];
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, ManifestChunk>;
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) closure(dep, seen);
    return seen;
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  const loaded = entry ? closure(entry) : new Set<string>();
  // The entry's boot steps (React DOM, the app's shell), which main.tsx imports at once: index.html preloads them
  // beside the entry (decision 036).
  for (const key of [...loaded])
    for (const boot of manifest[key]?.dynamicImports ?? []) closure(boot, loaded);
  const files = new Set<string>();
  for (const source of sources) {
    for (const key of closure(source)) {
      if (loaded.has(key)) continue;
      const chunk = manifest[key] as ManifestChunk;
      files.add(chunk.file);
      for (const css of chunk.css ?? []) files.add(css);
    }
  }
  return [...files];
}

/**
 * `<link rel="prefetch">` tags for the chunks of the given source modules that the entry does not already load:
 * the browser fetches them in idle time, and evaluates them only when the page is opened. `name` marks them
 * (`data-prefetch`) for the client code that would otherwise import them in idle time. A chunk in `listed` (of
 * links the page already has) gets no second link: each link inserted is work on a phone's main thread.
 */
export function prefetchLinks(
  clientDist: string,
  sources: string[],
  name: string,
  listed: ReadonlySet<string> = new Set(),
): { html: string; files: Set<string> } {
  const files = chunkFilesBeyondEntry(clientDist, sources).filter((file) => !listed.has(file));
  return {
    html: files
      .map((file) => `<link rel="prefetch" href="/${file}" data-prefetch="${name}" />`)
      .join("\n    "),
    files: new Set([...listed, ...files]),
  };
}

/**
 * `<link rel="modulepreload">` tags for the chunks of the given source modules that the entry does not already
 * load: for a page the client renders, its route's code is fetched beside the entry instead of after it has run.
 */
export function modulePreloadLinks(clientDist: string, sources: string[]): string {
  return modulePreloads(clientDist, sources).html;
}

/** `modulePreloadLinks`, with the files they name (a page's prefetch links then leave those out). */
export function modulePreloads(clientDist: string, sources: string[]): { html: string; files: Set<string> } {
  const files = chunkFilesBeyondEntry(clientDist, sources);
  return {
    html: files
      .map((file) =>
        file.endsWith(".css")
          ? `<link rel="preload" as="style" href="/${file}" />`
          : `<link rel="modulepreload" crossorigin href="/${file}" />`,
      )
      .join("\n    "),
    files: new Set(files),
  };
}

/**
 * The `<link rel="modulepreload">` tags of a server-rendered page's own code (its route, the data layer, its words
 * in its language), made once per list of sources: they go into the page's after-paint template beside the entry
 * (decision 036), so the page's code is fetched with the app's instead of after the app has started, and the app's
 * module loader finds them in the document instead of inserting a link per chunk in the task that starts the page
 * (some 30 ms at a phone's CPU speed on the pay page).
 */
export function pageCodeLinks(clientDist: string): (sources: readonly string[]) => string {
  const made = new Map<string, string>();
  return (sources) => {
    const key = sources.join("\n");
    let links = made.get(key);
    if (links === undefined) {
      links = modulePreloadLinks(clientDist, [...sources]);
      made.set(key, links);
    }
    return links;
  };
}

/** The Vite manifest's key of an area's catalog in `locale` (the shell's two are plain JSON, the others compiled). */
export function catalogSource(locale: Locale, area: MessageArea): string {
  return area === "shell" || area === "site"
    ? `src/locales/${locale}/${area}.json`
    : `src/locales/${locale}/${area}.json?lingui`;
}

/**
 * The server-rendering entry built beside the client (`dist/ssr`, decision 009): the HTML inside #root of a page,
 * in `locale` for a translated page (decision 038).
 */
export type PageRenderer = (
  path: string,
  data: Record<string, unknown>,
  locale?: Locale,
) => Promise<string | null>;

/** A message of the app's catalogs in `locale`, from the area its id names (page titles and descriptions the server writes). */
export type PageTranslator = (
  locale: Locale,
  id: string,
  values?: Record<string, string | number>,
) => Promise<string>;

type ServerEntry = { renderPage: PageRenderer; translate: PageTranslator };

/** How long after start the server-rendering entry is imported in the background when no page asked for it. */
const RENDERER_PRELOAD_DELAY_MS = 1000;

/**
 * The server-rendering entry of the build, or null when there is none (tests with a stub client). It is imported
 * off the start's critical path (decision 020): at the first page it renders, or in the background a second after
 * start, so the first visitor does not pay React's server renderer and the pages' modules (some 100 ms of CPU).
 * A failed import fails that render (the callers' fallback) and is tried again at the next.
 */
export function loadServerEntry(
  clientDist: string,
): { render: PageRenderer; translate: PageTranslator } | null {
  const entry = join(dirname(clientDist), "ssr", "entry-server.js");
  if (!existsSync(entry)) return null;
  let loading: Promise<ServerEntry> | undefined;
  const load = () => {
    loading ??= import(pathToFileURL(entry).href).then(
      (module: ServerEntry) => module,
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  setTimeout(() => load().catch(() => {}), RENDERER_PRELOAD_DELAY_MS).unref();
  return {
    render: (path, data, locale) => load().then((module) => module.renderPage(path, data, locale)),
    translate: (locale, id, values) => load().then((module) => module.translate(locale, id, values)),
  };
}

/**
 * Serves the built single-page app: hashed assets cached forever and precompressed at build time;
 * index.html never cached. Paths the client routes (anything not under /api) get index.html from the
 * not-found handler, see `sendIndexHtml`.
 */
export async function registerClientRoutes(app: FastifyInstance, clientDist: string) {
  await app.register(fastifyStatic, {
    root: clientDist,
    wildcard: false,
    index: false,
    preCompressed: true,
    // One route per file the app links to (found at start, so a miss costs no lookup on disk); a file's .br and
    // .gz twins are what `preCompressed` sends in its place, not addresses of their own (they were half of the
    // ~560 routes a start registered).
    globIgnore: ["**/*.br", "**/*.gz"],
    cacheControl: false,
    serveDotFiles: false,
    setHeaders(reply, path) {
      if (path.includes("/assets/")) reply.header("Cache-Control", IMMUTABLE);
      else reply.header("Cache-Control", "public, max-age=3600");
    },
  });
  // Browsers ask for /favicon.ico on pages that name no icon (a PDF, a JSON answer): the app's icon is an SVG.
  app.get("/favicon.ico", (_request, reply) =>
    reply.header("Cache-Control", "public, max-age=86400").redirect("/favicon.svg", 301),
  );
}

/**
 * A page rendered for this request only (the pay page): compressed now, in the one encoding the client takes,
 * at a speed-first level (a cached page's maximum brotli costs tens of milliseconds per request).
 */
export function sendRenderedHtml(
  request: FastifyRequest,
  reply: FastifyReply,
  html: string,
  status: number,
  locale?: Locale,
) {
  const encoding = negotiateEncoding(request.headers["accept-encoding"]);
  const identity = Buffer.from(html, "utf8");
  reply
    .status(status)
    .header("Content-Type", "text/html; charset=utf-8")
    .header("Cache-Control", "no-store")
    // A page in its reader's language (decision 038) depends on the browser's languages and the chosen one.
    .header("Vary", locale ? "Accept-Encoding, Accept-Language, Cookie" : "Accept-Encoding");
  if (locale) reply.header("Content-Language", locale);
  if (encoding === "identity") return reply.send(identity);
  reply.header("Content-Encoding", encoding);
  return reply.send(
    encoding === "br"
      ? brotliCompressSync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } })
      : gzipSync(identity, { level: 6 }),
  );
}

export function sendIndexHtml(request: FastifyRequest, reply: FastifyReply, html: IndexHtml, status = 200) {
  const encoding = negotiateEncoding(request.headers["accept-encoding"]);
  reply
    .status(status)
    .header("Content-Type", "text/html; charset=utf-8")
    .header("Cache-Control", "no-cache")
    .header("Vary", "Accept-Encoding");
  if (encoding !== "identity") reply.header("Content-Encoding", encoding);
  const body = encoding === "br" ? html.br : encoding === "gzip" ? html.gzip : html.identity;
  return reply.send(body);
}
