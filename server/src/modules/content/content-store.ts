import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BlogPostResponse, BlogPostSummary, LegalDocumentResponse, LegalSlug } from "@common/content.ts";
import { LEGAL_DOCUMENTS } from "@common/content.ts";
import { parse as parseYaml } from "yaml";
import * as z from "zod";
import { countWords, renderMarkdown } from "./markdown.ts";

const WORDS_PER_MINUTE = 220;
const isoDate = z.union([z.date().transform((d) => d.toISOString().slice(0, 10)), z.iso.date()]);

const postFrontMatter = z.object({
  title: z.string().min(1),
  summary: z.string().min(1),
  date: isoDate,
  tags: z.array(z.string().min(1)).min(1),
  image: z.string().regex(/^\/[\w./-]+$/, "must be a site-relative path"),
});

const legalFrontMatter = z.object({
  title: z.string().min(1),
  summary: z.string().min(1),
  updated: isoDate,
});

export type BlogPost = Omit<BlogPostResponse, "newer" | "older"> & { words: number };

export type ContentStore = {
  /** Newest first. */
  posts: BlogPost[];
  listPosts(): BlogPostSummary[];
  getPost(slug: string): BlogPostResponse | undefined;
  getLegal(slug: LegalSlug): LegalDocumentResponse;
};

export function splitFrontMatter(source: string, file: string): { data: unknown; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) throw new Error(`${file}: missing front matter (--- ... ---)`);
  return { data: parseYaml(match[1] ?? ""), body: match[2] ?? "" };
}

function parseFile<S extends z.ZodType>(file: string, schema: S) {
  const { data, body } = splitFrontMatter(readFileSync(file, "utf8"), file);
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`${file}: invalid front matter: ${problems}`);
  }
  return { meta: parsed.data as z.output<S>, body };
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Reads and renders every Markdown file once, at start: a broken file stops the server with its name. */
export function loadContent(dir: string): ContentStore {
  const blogDir = join(dir, "blog");
  const posts: BlogPost[] = readdirSync(blogDir)
    .filter((f) => f.endsWith(".md"))
    .map((f) => {
      const slug = f.slice(0, -3);
      if (!SLUG.test(slug)) throw new Error(`${f}: file names must be lowercase-kebab-case slugs`);
      const { meta, body } = parseFile(join(blogDir, f), postFrontMatter);
      const words = countWords(body);
      return {
        slug,
        ...meta,
        words,
        readingMinutes: Math.max(1, Math.round(words / WORDS_PER_MINUTE)),
        html: renderMarkdown(body),
      };
    })
    .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));

  const legal = new Map<LegalSlug, LegalDocumentResponse>(
    LEGAL_DOCUMENTS.map((slug) => {
      const { meta, body } = parseFile(join(dir, "legal", `${slug}.md`), legalFrontMatter);
      return [slug, { slug, ...meta, html: renderMarkdown(body) }];
    }),
  );

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
