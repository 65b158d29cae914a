import MarkdownIt from "markdown-it";

/**
 * The one Markdown renderer for site content. `html: false` makes raw HTML in a source file come out as
 * escaped text, and markdown-it's link validation refuses javascript:, vbscript:, file: and most data: URLs, so
 * the output holds only tags Markdown itself produces: the client may insert it as HTML.
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: true });

const SAFE_LINK = /^(https?:|mailto:|\/|#)/i;
const defaultValidate = md.validateLink.bind(md);
// Stricter than the default: only web, mail, site-relative and in-page links (no data: images at all).
md.validateLink = (url: string) => defaultValidate(url) && SAFE_LINK.test(url.trim());

const renderToken = md.renderer.renderToken.bind(md.renderer);

md.renderer.rules.link_open = (tokens, idx, options) => {
  const token = tokens[idx];
  const href = token?.attrGet("href") ?? "";
  if (token && /^https?:/i.test(href)) {
    token.attrSet("target", "_blank");
    token.attrSet("rel", "noopener noreferrer");
  }
  return renderToken(tokens, idx, options);
};

md.renderer.rules.image = (tokens, idx, options, _env, self) => {
  const token = tokens[idx];
  if (token) {
    token.attrSet("alt", self.renderInlineAsText(token.children ?? [], options, _env));
    token.attrSet("loading", "lazy");
    token.attrSet("decoding", "async");
  }
  return self.renderToken(tokens, idx, options);
};

// Headings get stable ids so sections can be linked (#fees) from elsewhere.
md.renderer.rules.heading_open = (tokens, idx, options) => {
  const token = tokens[idx];
  const inline = tokens[idx + 1];
  if (token && inline?.type === "inline") token.attrSet("id", slugify(inline.content));
  return renderToken(tokens, idx, options);
};

/** Tables scroll on their own on narrow screens instead of widening the page. */
md.renderer.rules.table_open = (tokens, idx, options) =>
  `<div class="table-scroll">${renderToken(tokens, idx, options)}`;
md.renderer.rules.table_close = (tokens, idx, options) => `${renderToken(tokens, idx, options)}</div>`;

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/[\s_]+/g, "-")
    .replace(/-+/g, "-");
}

export function renderMarkdown(source: string): string {
  return md.render(source);
}

/** Whole words of the text a reader sees (code and link targets excluded), for the reading time. */
export function countWords(source: string): number {
  const text = source
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/\]\([^)]*\)/g, "]")
    .replace(/[#>*_`|[\]-]/g, " ");
  return text.split(/\s+/).filter((w) => /\w/.test(w)).length;
}
