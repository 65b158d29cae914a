import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { BlogPostResponse, BlogPostSummary, LegalDocumentResponse, LegalSlug } from "@common/content.ts";
import { LEGAL_DOCUMENTS } from "@common/content.ts";

export type BlogPost = Omit<BlogPostResponse, "newer" | "older"> & { words: number };

/** The Markdown files of a content directory, read, and a fingerprint of their names and text. */
export type ContentSources = {
  blog: { file: string; text: string }[];
  legal: { slug: LegalSlug; file: string; text: string }[];
  fingerprint: string;
};

/** What `renderContent` makes of the sources: the posts newest first, the legal documents in LEGAL_DOCUMENTS order. */
export type RenderedContent = { fingerprint: string; posts: BlogPost[]; legal: LegalDocumentResponse[] };

/**
 * Where the build leaves the rendered content (scripts/build-server.mjs), beside the compiled server. From the
 * TypeScript sources (tests, development) it does not exist and the content is rendered at start.
 */
export const PRERENDERED_CONTENT = fileURLToPath(new URL("content.json", import.meta.url));

export type ContentStore = {
  /** Newest first. */
  posts: BlogPost[];
  listPosts(): BlogPostSummary[];
  getPost(slug: string): BlogPostResponse | undefined;
  getLegal(slug: LegalSlug): LegalDocumentResponse;
};

export function readContentSources(dir: string): ContentSources {
  const blogDir = join(dir, "blog");
  const blog = readdirSync(blogDir)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => ({ file: join(blogDir, f), text: readFileSync(join(blogDir, f), "utf8") }));
  const legal = LEGAL_DOCUMENTS.map((slug) => {
    const file = join(dir, "legal", `${slug}.md`);
    return { slug, file, text: readFileSync(file, "utf8") };
  });
  const hash = createHash("sha256");
  // Names relative to the directory: the same files moved elsewhere (a deployment's copy) keep their rendering.
  for (const { file, text } of [...blog, ...legal]) {
    hash.update(relative(dir, file)).update("\0").update(text).update("\0");
  }
  return { blog, legal, fingerprint: hash.digest("hex") };
}

/** The build's rendering of exactly these sources, or null (none, unreadable, or of other sources). */
function readPrerendered(file: string, fingerprint: string): RenderedContent | null {
  try {
    const rendered = JSON.parse(readFileSync(file, "utf8")) as RenderedContent;
    return rendered.fingerprint === fingerprint ? rendered : null;
  } catch {
    return null;
  }
}

/**
 * The site's content. The build renders it once (decision 028); a start reads the files, and uses that rendering
 * when it was made from exactly these files. Otherwise (no build, an edited file, another CONTENT_DIR) it renders
 * them now, with the Markdown and YAML parsers loaded only then: a broken file stops the server with its name.
 */
export async function loadContent(dir: string, prerendered = PRERENDERED_CONTENT): Promise<ContentStore> {
  const sources = readContentSources(dir);
  const rendered =
    readPrerendered(prerendered, sources.fingerprint) ??
    (await import("./render-content.ts")).renderContent(sources);
  return contentStore(rendered);
}

function contentStore({ posts, legal: documents }: RenderedContent): ContentStore {
  const legal = new Map(documents.map((document) => [document.slug, document]));
  const summary = ({
    slug,
    title,
    summary,
    date,
    tags,
    image,
    readingMinutes,
  }: BlogPost): BlogPostSummary => ({
    slug,
    title,
    summary,
    date,
    tags,
    image,
    readingMinutes,
  });
  const link = (post: BlogPost | undefined) => (post ? { slug: post.slug, title: post.title } : null);
  const summaries = posts.map(summary);

  return {
    posts,
    listPosts: () => summaries,
    getPost(slug) {
      const index = posts.findIndex((p) => p.slug === slug);
      const post = posts[index];
      if (!post) return undefined;
      const { words: _words, ...rest } = post;
      return { ...rest, newer: link(posts[index - 1]), older: link(posts[index + 1]) };
    },
    getLegal: (slug) => legal.get(slug) as LegalDocumentResponse,
  };
}
