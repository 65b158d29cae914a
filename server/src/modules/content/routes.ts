import { isClientRoute } from "@common/client-routes.ts";
import { blogListResponse, blogPostResponse, legalDocumentResponse, legalSlug } from "@common/content.ts";
import { apiErrorBody } from "@common/errors.ts";
import { type PageMeta, PUBLIC_PAGES } from "@common/page-meta.ts";
import type { FastifyRequest } from "fastify";
import * as z from "zod";
import { AppError } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import type { IndexHtml } from "../web/index-html.ts";
import { PageHtmlCache, type RenderedBody, withHeadElements, withPageMeta } from "../web/page-meta.ts";
import type { PageRenderer } from "../web/routes.ts";
import type { ContentStore } from "./content-store.ts";
import { renderRobots, renderRss, renderSitemap } from "./feeds.ts";

type ContentOptions = { content: ContentStore; publicUrl: string };

/** The site's absolute origin for canonical URLs, feeds and previews: the public origin (decision 010). */
export function siteOrigin(_request: FastifyRequest, publicUrl: string): string {
  return publicUrl.replace(/\/+$/, "");
}

// Content changes only with a deploy: let browsers and CDNs keep it briefly.
const PUBLIC_CACHE = "public, max-age=300";

export async function contentRoutes(app: FastifyZod, { content, publicUrl }: ContentOptions) {
  app.get(
    "/api/blog",
    { config: { rateLimit: "public" }, schema: { response: { 200: blogListResponse } } },
    async (_request, reply) => {
      reply.header("Cache-Control", PUBLIC_CACHE);
      return { posts: content.listPosts() };
    },
  );

  app.get(
    "/api/blog/:slug",
    {
      config: { rateLimit: "public" },
      schema: {
        params: z.object({ slug: z.string().max(200) }),
        response: { 200: blogPostResponse, 404: apiErrorBody },
      },
    },
    async (request, reply) => {
      const post = content.getPost(request.params.slug);
      if (!post) throw new AppError("NOT_FOUND", "There is no blog post at this address.");
      reply.header("Cache-Control", PUBLIC_CACHE);
      return post;
    },
  );

  app.get(
    "/api/legal/:slug",
    {
      config: { rateLimit: "public" },
      schema: { params: z.object({ slug: legalSlug }), response: { 200: legalDocumentResponse } },
    },
    async (request, reply) => {
      reply.header("Cache-Control", PUBLIC_CACHE);
      return content.getLegal(request.params.slug);
    },
  );

  app.get("/rss.xml", async (request, reply) =>
    reply
      .header("Content-Type", "application/rss+xml; charset=utf-8")
      .header("Cache-Control", PUBLIC_CACHE)
      .send(renderRss(siteOrigin(request, publicUrl), content.posts)),
  );

  app.get("/robots.txt", async (request, reply) =>
    reply
      .header("Content-Type", "text/plain; charset=utf-8")
      .header("Cache-Control", PUBLIC_CACHE)
      .send(renderRobots(siteOrigin(request, publicUrl))),
  );

  app.get("/sitemap.xml", async (request, reply) =>
    reply
      .header("Content-Type", "application/xml; charset=utf-8")
      .header("Cache-Control", PUBLIC_CACHE)
      .send(renderSitemap(siteOrigin(request, publicUrl), content.posts)),
  );
}

/** The title, description and preview image of a public page or blog post, or null for any other path. */
export function pageMetaFor(path: string, content: ContentStore): PageMeta | null {
  const normalized = path.length > 1 ? path.replace(/\/+$/, "") : path;
  if (normalized in PUBLIC_PAGES) return PUBLIC_PAGES[normalized as keyof typeof PUBLIC_PAGES];
  const slug = /^\/blog\/([^/]+)$/.exec(normalized)?.[1];
  const post = slug ? content.getPost(decodeURIComponent(slug)) : undefined;
  if (!post) return null;
  return { title: post.title, description: post.summary, image: post.image, type: "article" };
}

const BLOG_POST_PATH = /^\/blog\/([^/]+)$/;

/** The query data (by query key, as the client's hooks name it) a server-rendered page reads. */
export function pageDataFor(path: string, content: ContentStore): Record<string, unknown> {
  if (path === "/blog") return { "/api/blog": blogListResponse.parse({ posts: content.listPosts() }) };
  const slug = BLOG_POST_PATH.exec(path)?.[1];
  const post = slug ? content.getPost(decodeURIComponent(slug)) : undefined;
  if (slug && post)
    return { [`/api/blog/${encodeURIComponent(decodeURIComponent(slug))}`]: blogPostResponse.parse(post) };
  return {};
}

export type PageHtml = { html: IndexHtml; status: number };

/**
 * Picks the index.html to serve for a client route: with the page's own head tags when it is a public page or
 * a post (so link previews and crawlers see them without JavaScript), the generic one otherwise. With a `render`
 * (the build's server-rendering entry) the content pages also carry their HTML (decision 009); `head` adds
 * elements to the head of a path's HTML, `clientPageHead` to that of a page only the client renders (a fixed
 * set of strings: one compressed copy of index.html per string). An unknown post, and any path outside the
 * client's route table, answers 404 (the client shows its not-found page).
 */
export function createPageHtmlResolver(
  index: IndexHtml,
  content: ContentStore,
  publicUrl: string,
  {
    render = null,
    head = () => "",
    clientPageHead = () => "",
  }: {
    render?: PageRenderer | null;
    head?: (path: string) => string;
    clientPageHead?: (path: string) => string;
  } = {},
) {
  const cache = new PageHtmlCache<Promise<IndexHtml>>();
  const clientPages = new Map<string, IndexHtml>();
  return async (request: FastifyRequest, path: string): Promise<PageHtml> => {
    let meta: PageMeta | null;
    try {
      meta = pageMetaFor(path, content);
    } catch {
      meta = null; // a malformed %-escape in the path
    }
    if (!meta) {
      const canonical = path.length > 1 ? path.replace(/\/+$/, "") : path;
      const known = isClientRoute(canonical) && !BLOG_POST_PATH.test(canonical);
      const extra = known ? clientPageHead(canonical) : "";
      if (!extra) return { html: index, status: known ? 200 : 404 };
      let html = clientPages.get(extra);
      if (!html) {
        html = withHeadElements(index, extra);
        clientPages.set(extra, html);
      }
      return { html, status: 200 };
    }
    const pageMeta = meta;
    const origin = siteOrigin(request, publicUrl);
    const canonicalPath = path.length > 1 ? path.replace(/\/+$/, "") : path;
    const key = `${origin}${path}`;
    const html = cache.get(key, () => {
      const rendered = (async (): Promise<RenderedBody | undefined> => {
        if (!render) return undefined;
        const data = pageDataFor(path, content);
        const markup = await render(path, data);
        return markup === null ? undefined : { markup, data };
      })();
      return rendered.then(
        (body) =>
          withPageMeta(index, pageMeta, `${origin}${canonicalPath}`, origin, { body, head: head(path) }),
        (error: unknown) => {
          request.log.error({ err: error, path }, "server rendering failed; serving the page without it");
          return withPageMeta(index, pageMeta, `${origin}${canonicalPath}`, origin, { head: head(path) });
        },
      );
    });
    return { html: await html, status: 200 };
  };
}
