import * as z from "zod";

/** A blog post as listed: everything but the body. Dates are ISO calendar dates (YYYY-MM-DD). */
export const blogPostSummary = z.object({
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  date: z.string(),
  tags: z.array(z.string()),
  /** Site-relative path of the post's illustration. */
  image: z.string(),
  readingMinutes: z.number().int().positive(),
});
export type BlogPostSummary = z.infer<typeof blogPostSummary>;

export const blogListResponse = z.object({ posts: z.array(blogPostSummary) });
export type BlogListResponse = z.infer<typeof blogListResponse>;

const postLink = z.object({ slug: z.string(), title: z.string() }).nullable();

export const blogPostResponse = blogPostSummary.extend({
  /**
   * The body rendered by the server's Markdown renderer, which escapes any raw HTML in the source and refuses
   * script-capable link schemes: it contains only the tags Markdown itself produces.
   */
  html: z.string(),
  /** The newer and the older post, for reading on. */
  newer: postLink,
  older: postLink,
});
export type BlogPostResponse = z.infer<typeof blogPostResponse>;

export const LEGAL_DOCUMENTS = ["privacy-policy", "terms-of-service", "legal-documents"] as const;
export const legalSlug = z.enum(LEGAL_DOCUMENTS);
export type LegalSlug = z.infer<typeof legalSlug>;

export const legalDocumentResponse = z.object({
  slug: legalSlug,
  title: z.string(),
  summary: z.string(),
  /** ISO date of the last change. */
  updated: z.string(),
  html: z.string(),
});
export type LegalDocumentResponse = z.infer<typeof legalDocumentResponse>;
