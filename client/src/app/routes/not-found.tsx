import { Compass, House } from "lucide-react";
import { Link, useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { useDocumentLanguage } from "@/i18n/i18n";
import { useSiteT } from "@/i18n/site-words";
import { useDocumentTitle } from "@/lib/document-title";

/** In its reader's language (issue 37): its words are the shell's (area `site`), loaded with the page. */
export default function NotFoundPage() {
  const [location] = useLocation();
  useDocumentLanguage();
  const { t } = useSiteT();
  useDocumentTitle(t("site.notFound.title"));
  // The path is the reader's address, left to right in any language.
  const [before = "", after = ""] = t("site.notFound.text", { path: "\u2063" }).split("\u2063");
  return (
    <div className="mx-auto flex min-h-[70vh] max-w-xl flex-col items-center justify-center gap-5 px-4 py-16 text-center">
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-primary/12 text-primary">
        <Compass className="size-7" aria-hidden="true" />
      </span>
      <p className="font-semibold text-muted-foreground text-sm tabular-nums tracking-wider">404</p>
      <h1 className="font-bold text-3xl tracking-tight sm:text-4xl">{t("site.notFound.title")}</h1>
      <p className="text-pretty text-muted-foreground">
        {before}
        <code dir="ltr" className="break-all rounded bg-muted px-1.5 py-0.5 font-mono">
          {location}
        </code>
        {after}
      </p>
      <div className="flex w-full max-w-xs flex-col gap-3 sm:w-auto sm:max-w-none sm:flex-row">
        <Button asChild>
          <Link href="/">
            <House aria-hidden="true" />
            {t("site.notFound.home")}
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/contact">{t("site.notFound.contact")}</Link>
        </Button>
      </div>
    </div>
  );
}
