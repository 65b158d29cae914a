import { cn } from "@/lib/utils";

/**
 * Shows Markdown the server rendered. Its renderer (markdown-it, `html: false`, restricted link schemes) escapes
 * raw HTML in the source, so this HTML holds only the tags Markdown produces: nothing a post author writes can
 * run as script (server/test/content.test.ts proves it). Its typography (prose.css) is in the entry's stylesheet
 * (main.tsx).
 */
export function MarkdownArticle({ html, className }: { html: string; className?: string }) {
  return (
    <div
      data-slot="markdown-article"
      className={cn("prose", className)}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by construction on the server, see above
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
