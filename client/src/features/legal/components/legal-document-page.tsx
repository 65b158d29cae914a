import type { LegalSlug } from "@common/content";
import { PUBLIC_PAGES } from "@common/page-meta";
import type { LucideIcon } from "lucide-react";
import { Printer } from "lucide-react";
import { MarkdownArticle } from "@/components/content/markdown-article";
import { PageFrame } from "@/components/layout/page-frame";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { EnglishOnlyNotice } from "@/i18n/english-only-notice";
import { usePageMeta } from "@/lib/page-meta";
import { useLegalDocument } from "../api/get-legal-document";

function formatDay(isoDay: string) {
  return new Date(`${isoDay}T12:00:00Z`).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
}

/** A legal text from the server's Markdown, with its last-updated date, printable on its own. */
export function LegalDocumentPage({ slug, icon }: { slug: LegalSlug; icon: LucideIcon }) {
  const meta = PUBLIC_PAGES[`/${slug}`];
  usePageMeta(meta);
  const doc = useLegalDocument(slug);

  return (
    <PageFrame title={meta.title} icon={icon} className="print-area" description={meta.description}>
      <EnglishOnlyNotice />
      {doc.isPending ? (
        <div className="flex min-h-[30vh] items-center justify-center" aria-busy="true">
          <Spinner label={`Loading the ${meta.title}`} />
        </div>
      ) : doc.isError ? (
        <p role="alert" className="rounded-xl border border-destructive/50 bg-destructive/10 p-6">
          The document could not be loaded. Please reload the page, or write to us through the contact form.
        </p>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border bg-card px-4 py-2">
            <p className="text-muted-foreground text-sm">
              Last updated: <time dateTime={doc.data.updated}>{formatDay(doc.data.updated)}</time>
            </p>
            <Button variant="ghost" size="sm" className="no-print" onClick={() => window.print()}>
              <Printer aria-hidden="true" />
              Print
            </Button>
          </div>
          <MarkdownArticle html={doc.data.html} />
        </>
      )}
    </PageFrame>
  );
}
