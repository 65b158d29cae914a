import { Languages } from "lucide-react";
import { ClientOnly } from "@/components/client-only";
import { languageAttributes, useLocale, useT } from "./i18n";

function Notice() {
  const locale = useLocale();
  const t = useT();
  if (locale === "en") return null;
  return (
    <p
      {...languageAttributes(locale)}
      data-testid="english-only-notice"
      className="flex items-center gap-2 rounded-lg border border-border bg-muted/50 px-4 py-3 text-muted-foreground text-sm"
    >
      <Languages aria-hidden="true" className="size-4 shrink-0" />
      {t("content.englishOnly.notice")}
    </p>
  );
}

/**
 * Content pages (blog posts, legal texts) are written in English only (issue 37): a reader whose language is
 * another is told so, in their language. Drawn after hydration: the server renders these pages once, in English.
 */
export function EnglishOnlyNotice() {
  return (
    <ClientOnly>
      <Notice />
    </ClientOnly>
  );
}
