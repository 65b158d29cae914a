import type { Link } from "@common/links";
import type { Merchant } from "@common/merchant";
import * as React from "react";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { useProducts } from "@/features/links/api/links";
import { useMerchant } from "@/features/payments/dashboard/api/get-merchant";
import { merchantQueryState } from "@/features/payments/dashboard/components/merchant-query-state";
import { NoBusinessPrompt } from "@/features/payments/dashboard/components/no-business-prompt";
import type { PosItem } from "@/features/pos/cart";
import { PosView } from "@/features/pos/components/pos-view";
import { useDocumentLanguage, useT } from "@/i18n/i18n";
import { useDocumentTitle } from "@/lib/document-title";

/** A product of the counter is a switched-on fixed-price link (decision 034). */
const toItem = (link: Link): PosItem => ({
  id: link.id,
  title: link.title,
  currency: link.currency,
  price: link.amount ?? "0",
  imageUrl: link.imageUrl,
});

function Counter() {
  const merchant = useMerchant();
  const t = useT();
  const fallback = merchantQueryState(merchant, t);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <div className="mx-auto flex max-w-md flex-col gap-4 p-6">
        <h1 className="font-semibold text-2xl">{t("pos.page.title")}</h1>
        <NoBusinessPrompt
          reason={t("pos.page.noBusinessReason")}
          title={t("pos.page.noBusinessTitle")}
          action={t("pos.page.registerBusiness")}
        />
      </div>
    );
  }
  return <CounterOfBusiness merchant={merchant.data} />;
}

function CounterOfBusiness({ merchant }: { merchant: Merchant }) {
  // The counter opens with its products (a grid appearing above the keys once they arrive pushed the keypad down
  // under the cashier's finger); if they cannot be read, the keypad works without them.
  const products = useProducts();
  const t = useT();
  const items = React.useMemo(
    () => (products.data?.items ?? []).filter((l) => l.amount !== null).map(toItem),
    [products.data],
  );
  // The counter is the page's one big render (some 30 ms of CPU here, over 100 ms at a phone's speed): when the
  // products arrive it renders in a deferred pass, which React splits into 5 ms slices, rather than inside the
  // task that delivered them (issue 39: no long task after the first paint). Already loaded (coming back from
  // the dashboard): at once, with no spinner's flash.
  const [loadedAtStart] = React.useState(!products.isPending);
  const ready = React.useDeferredValue(!products.isPending, loadedAtStart);
  if (!ready)
    return (
      <div className="flex min-h-dvh items-center justify-center">
        <Spinner size="lg" label={t("pos.page.opening")} />
      </div>
    );
  return <PosView merchant={merchant} items={items} />;
}

/**
 * /pos: the counter, full screen (no app header), for owners, admins and staff (decision 033), in the language of
 * the device (or the one chosen with its menu): the customer reads the same screen.
 */
export default function PosPage() {
  const { user, isLoading } = useAuth();
  useDocumentLanguage();
  const t = useT();
  useDocumentTitle(t("pos.page.title"));
  if (isLoading)
    return (
      <div className="flex min-h-dvh items-center justify-center">
        <Spinner size="lg" label={t("pos.page.checkingSession")} />
      </div>
    );
  if (!user)
    return (
      <div className="mx-auto flex max-w-md flex-col gap-4 p-6">
        <h1 className="font-semibold text-2xl">{t("pos.page.title")}</h1>
        <SignInPrompt
          reason={t("pos.page.signInReason")}
          title={t("pos.page.signInTitle")}
          action={t("pos.page.signIn")}
        />
      </div>
    );
  return <Counter />;
}
