import { basename } from "node:path";
import { parse as parseYaml } from "yaml";
import * as z from "zod";
import type { BlogPost, ContentSources, RenderedContent } from "./content-store.ts";
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

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function splitFrontMatter(source: string, file: string): { data: unknown; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) throw new Error(`${file}: missing front matter (--- ... ---)`);
  return { data: parseYaml(match[1] ?? ""), body: match[2] ?? "" };
}

function parseFile<S extends z.ZodType>(file: string, text: string, schema: S) {
  const { data, body } = splitFrontMatter(text, file);
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`${file}: invalid front matter: ${problems}`);
  }
  return { meta: parsed.data as z.output<S>, body };
}

/**
 * Checks and renders every Markdown file: at build time (scripts/build-server.mjs) and at a start that has no
 * rendering of these exact files. Throws with the file's name on the first broken one.
 */
export function renderContent({ blog, legal, fingerprint }: ContentSources): RenderedContent {
  const posts: BlogPost[] = blog
    .map(({ file, text }) => {
      const slug = basename(file).slice(0, -3);
      if (!SLUG.test(slug))
        throw new Error(`${basename(file)}: file names must be lowercase-kebab-case slugs`);
      const { meta, body } = parseFile(file, text, postFrontMatter);
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
  const documents = legal.map(({ slug, file, text }) => {
    const { meta, body } = parseFile(file, text, legalFrontMatter);
    return { slug, ...meta, html: renderMarkdown(body) };
  });
  return { fingerprint, posts, legal: documents };
}
