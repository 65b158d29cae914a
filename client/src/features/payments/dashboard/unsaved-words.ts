import type { UnsavedWords } from "@/hooks/use-unsaved-changes";
import { useT } from "@/i18n/i18n";

/** `useUnsavedChanges`' options for a form of the dashboard: its "discard your changes?" in the reader's language. */
export function useUnsavedWords(what: string): { what: string; words: UnsavedWords } {
  const t = useT();
  return {
    what,
    words: {
      title: t("merchant.unsaved.title"),
      description: t("merchant.unsaved.description", { what }),
      confirm: t("merchant.unsaved.confirm"),
      cancel: t("merchant.unsaved.cancel"),
    },
  };
}
