import { useParams, useSearch } from "wouter";
import { LinkEmbed } from "@/features/links/components/link-embed";
import { LinkView } from "@/features/links/components/link-view";
import { ThemeToggle } from "@/features/theme/theme-toggle";
import { useDocumentLanguage, useT } from "@/i18n/i18n";
import { useDocumentTitle } from "@/lib/document-title";

export default function LinkPage() {
  const { slug } = useParams<{ slug: string }>();
  // Opened by the pay button of another website (decision 035): "Pay" continues in the overlay, which keeps
  // reporting to that site from the new request's pay page.
  const search = new URLSearchParams(useSearch());
  const embedOrigin = search.get("embed") === "1" ? search.get("origin") : null;
  useDocumentLanguage();
  const t = useT();
  useDocumentTitle(t("pay.link.documentTitle"));
  return (
    <>
      <LinkView
        key={slug}
        slug={slug}
        headerEnd={
          <ThemeToggle labels={{ dark: t("pay.header.themeDark"), light: t("pay.header.themeLight") }} />
        }
        embedOrigin={embedOrigin}
      />
      {embedOrigin ? <LinkEmbed key={slug} slug={slug} origin={embedOrigin} /> : null}
    </>
  );
}
