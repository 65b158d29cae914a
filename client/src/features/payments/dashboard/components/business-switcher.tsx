import { Building2 } from "lucide-react";
import { useT } from "@/i18n/i18n";
import { useBusinesses, useSwitchBusiness } from "../api/businesses";
import { useMerchant } from "../api/get-merchant";
import { merchantErrorText } from "../merchant-error-text";

const ROLE_LABEL = {
  owner: "merchant.role.owner",
  admin: "merchant.role.admin",
  staff: "merchant.role.staff",
} as const;

/** Shown only to someone who works for more than one business: which one the dashboard shows. */
export function BusinessSwitcher() {
  const merchant = useMerchant();
  // Asked only of someone in two businesses or more: a dashboard load stays one request per thing.
  const businesses = useBusinesses((merchant.data?.businessCount ?? 0) > 1);
  const switching = useSwitchBusiness();
  const t = useT();
  const items = businesses.data ?? [];
  if (items.length < 2) return null;
  const active = items.find((b) => b.active);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <Building2 aria-hidden="true" className="size-4 text-muted-foreground" />
      <label htmlFor="business-switcher" className="text-muted-foreground">
        {t("merchant.switcher.label")}
      </label>
      <select
        id="business-switcher"
        className="min-h-11 rounded-md border border-input bg-background px-3 text-foreground text-sm focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
        value={active?.merchantId ?? ""}
        disabled={switching.isPending}
        onChange={(event) => switching.mutate(event.target.value)}
      >
        {items.map((b) => (
          <option key={b.merchantId} value={b.merchantId}>
            {t("merchant.switcher.option", { name: b.name, role: t(ROLE_LABEL[b.role]) })}
          </option>
        ))}
      </select>
      {/* A refused switch (a membership that ended meanwhile) says why, in the reader's words. */}
      {switching.isError ? (
        <p role="alert" className="basis-full font-medium text-destructive text-sm">
          {t("merchant.switcher.failed", { error: merchantErrorText(switching.error) })}
        </p>
      ) : null}
    </div>
  );
}
