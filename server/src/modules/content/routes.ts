import { blogListResponse, blogPostResponse, legalDocumentResponse, legalSlug } from "@common/content.ts";
import { apiErrorBody } from "@common/errors.ts";
import { type PageMeta, PUBLIC_PAGES } from "@common/page-meta.ts";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import type { IndexHtml } from "../web/index-html.ts";
import { PageHtmlCache, withPageMeta } from "../web/page-meta.ts";
import type { ContentStore } from "./content-store.ts";
import { renderRss, renderSitemap } from "./feeds.ts";

type ContentOptions = { content: ContentStore; publicUrl: string | undefined };

/** The site's absolute origin: PUBLIC_URL when configured, otherwise what the request was addressed to. */
export function siteOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  return (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");
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

/**
 * Picks the index.html to serve for a client route: with the page's own head tags when it is a public page or
 * a post (so link previews and crawlers see them without JavaScript), the generic one otherwise.
 */
export function createPageHtmlResolver(
  index: IndexHtml,
  content: ContentStore,
  publicUrl: string | undefined,
) {
  const cache = new PageHtmlCache();
  return (request: FastifyRequest, path: string): IndexHtml => {
    let meta: PageMeta | null;
    try {
      meta = pageMetaFor(path, content);
    } catch {
      meta = null; // a malformed %-escape in the path
    }
    if (!meta) return index;
    const origin = siteOrigin(request, publicUrl);
    const canonicalPath = path.length > 1 ? path.replace(/\/+$/, "") : path;
    return cache.get(`${origin}${canonicalPath}`, () =>
      withPageMeta(index, meta, `${origin}${canonicalPath}`, origin),
    );
  };
}
