import { UsersIcon } from "lucide-react";
import { useSiteT } from "@/i18n/site-words";
import { useLiveUserCount } from "./use-live-user-count";

/** 'N users online', shown only while the live connection is open (spec sections 1 and 4). */
export function LiveUsersWidget() {
  const count = useLiveUserCount();
  const { t } = useSiteT();
  if (count === null) return null;
  return (
    <output
      data-testid="live-users"
      aria-live="polite"
      className="inline-flex h-9 items-center gap-1.5 whitespace-nowrap rounded-full border border-border bg-background/70 px-3 text-muted-foreground text-xs sm:text-sm"
    >
      <span className="size-2 rounded-full bg-emerald-500" aria-hidden="true" />
      <UsersIcon className="hidden size-4 sm:block" aria-hidden="true" />
      <span>{t("site.liveUsers", { count })}</span>
    </output>
  );
}
