import { directionOf } from "@common/locales";
import { TriangleAlert } from "lucide-react";
import { buttonVariants } from "@/components/ui/button-variants";
import { useSiteT } from "@/i18n/site-words";
import { errorText } from "@/lib/error-text";

/** A page's code (a lazy chunk) that could not be fetched, as each browser words it. */
const CHUNK_FAILED =
  /dynamically imported module|error loading dynamically|importing a module script failed/i;

/**
 * Spec section 2: the generic error screen, in the frame's language (the shell's, with its `lang` and `dir`: the
 * page that set `<html lang>` is the one that failed).
 */
export function ErrorScreen({ error }: { error?: unknown }) {
  const { t, locale } = useSiteT();
  // A page that could not be fetched is said in the reader's words; another error's own message is the app's or
  // the server's (English), shown as it is.
  const message = !(error instanceof Error && error.message)
    ? t("site.error.unexpected")
    : CHUNK_FAILED.test(error.message)
      ? t("site.error.pageNotLoaded")
      : errorText(error);
  return (
    <div
      role="alert"
      lang={locale}
      dir={directionOf(locale)}
      className="flex min-h-[70vh] items-center justify-center px-4 py-16"
    >
      <div className="flex w-full max-w-md flex-col items-center gap-4 rounded-xl border border-border bg-card p-8 text-center text-card-foreground shadow-sm">
        <span className="inline-flex size-12 items-center justify-center rounded-full bg-destructive/15 text-destructive-emphasis">
          <TriangleAlert className="size-6" aria-hidden="true" />
        </span>
        <h1 className="font-bold text-2xl tracking-tight">{t("shell.errorTitle")}</h1>
        <p className="break-words text-muted-foreground" data-testid="error-message">
          {message}
        </p>
        <button type="button" className={buttonVariants()} onClick={() => window.location.reload()}>
          {t("site.error.tryAgain")}
        </button>
      </div>
    </div>
  );
}
