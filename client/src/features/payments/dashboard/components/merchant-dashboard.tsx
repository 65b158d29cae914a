import type { Merchant } from "@common/merchant";
import type { Payment } from "@common/payments";
import { Calculator, Pencil, Users, Volume2, VolumeX } from "lucide-react";
import * as React from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { useHydrated } from "@/hooks/use-hydrated";
import { Rich, useT } from "@/i18n/i18n";
import { Ltr } from "@/i18n/ltr";
import { shortAddress } from "../../format";
import { useDetectionHealthy } from "../api/get-detection-health";
import { useMerchant } from "../api/get-merchant";
import { playChime, useSound } from "../sound";
import { useLiveMerchant } from "../use-live-merchant";
import type { SignOwnership } from "./business-setup-form";
import { CreatePaymentForm } from "./create-payment-form";
import { DetectionStatus } from "./detection-status";
import { LoadingPart } from "./loading-part";
import { merchantQueryState } from "./merchant-query-state";
import { PaymentDetailSheet } from "./payment-detail-sheet";
import { PaymentHistory } from "./payment-history";
import { useHistoryWords } from "./payment-history-panel";
import { PaymentNotification } from "./payment-notification";
import { UnattributedInbox } from "./unattributed-inbox";

// What the dashboard shows only on demand loads then, with the request schemas (zod) its forms check: the
// first render of a business's dashboard runs none of it (decision 025).
const BusinessSetupForm = React.lazy(() =>
  import("./business-setup-form").then((m) => ({ default: m.BusinessSetupForm })),
);
const EditBusinessForm = React.lazy(() =>
  import("./edit-business-form").then((m) => ({ default: m.EditBusinessForm })),
);

/** The business as the server renders the dashboard's frame: still loading (decision 025). */
const AS_SERVER_RENDERED = { isPending: true, isError: false, data: undefined } as ReturnType<
  typeof useMerchant
>;

export function MerchantDashboard({ signOwnership }: { signOwnership: SignOwnership }) {
  // The dashboard is the app's largest tree: rendered from a deferred value, React builds it in the background in
  // slices of a few milliseconds once the business arrives, instead of in one long task (a phone stays responsive).
  // Hydrating the server's frame, it starts from the frame's loading state whatever the query holds by then: on a
  // busy phone the business (or its 404) can arrive before hydration reaches this part, and rendering it there
  // would not match the server's markup (React's error 418, and the part rendered again).
  const merchant = React.useDeferredValue(useMerchant(), useHydrated() ? undefined : AS_SERVER_RENDERED);
  const t = useT();
  const fallback = merchantQueryState(merchant, t);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <React.Suspense fallback={<LoadingPart />}>
        <BusinessSetupForm signOwnership={signOwnership} />
      </React.Suspense>
    );
  }
  return <Dashboard merchant={merchant.data} signOwnership={signOwnership} />;
}

function Dashboard({ merchant, signOwnership }: { merchant: Merchant; signOwnership: SignOwnership }) {
  const [notice, setNotice] = React.useState<Payment | null>(null);
  const [editing, setEditing] = React.useState(false);
  // The open Edit business form asks before its unsaved typing is discarded (it fills this in).
  const confirmClose = React.useRef<((close: () => void) => void) | null>(null);
  const closeEditing = () =>
    confirmClose.current ? confirmClose.current(() => setEditing(false)) : setEditing(false);
  const [openId, setOpenId] = React.useState<string | null>(null);
  const viewing = React.useRef<string | null>(null);
  viewing.current = openId;
  const onPayment = React.useCallback((payment: Payment, event: string) => {
    // A refund, or a payer's refund address, is news about money going out: no "payment received" chime.
    if (event === "payment.snapshot" || event.startsWith("payment.refund")) return;
    if (payment.status === "completed" || payment.status === "paid_late" || payment.status === "partial") {
      playChime(payment.status === "partial" ? "partial" : "completed");
      // The payment open in the detail view shows the news there already.
      if (viewing.current !== payment.id) setNotice(payment);
    }
  }, []);
  const live = useLiveMerchant(onPayment);
  const detecting = useDetectionHealthy();
  const sound = useSound();
  const t = useT();
  const historyWords = useHistoryWords();
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-sm">
            <span className="font-semibold" data-testid="business-name">
              {merchant.name}
            </span>{" "}
            {merchant.role === "owner" ? null : (
              <span className="text-muted-foreground" data-testid="business-role">
                {t(
                  merchant.role === "admin"
                    ? "merchant.dashboard.youAreAdmin"
                    : "merchant.dashboard.youAreStaff",
                )}{" "}
              </span>
            )}
            <span className="text-muted-foreground">
              <Rich
                id="merchant.dashboard.receivesTo"
                values={{
                  address: (
                    <Ltr>
                      <span className="font-mono" title={merchant.walletAddress}>
                        {shortAddress(merchant.walletAddress)}
                      </span>
                    </Ltr>
                  ),
                }}
              />
            </span>
          </p>
          {merchant.role === "staff" ? null : (
            <>
              <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" /> {t("merchant.dashboard.editBusiness")}
              </Button>
              <Button variant="outline" size="sm" asChild>
                <Link href="/team">
                  <Users aria-hidden="true" /> {t("merchant.dashboard.team")}
                </Link>
              </Button>
            </>
          )}
          <Button variant="outline" size="sm" asChild>
            <Link href="/pos">
              <Calculator aria-hidden="true" /> {t("merchant.dashboard.counter")}
            </Link>
          </Button>
          {sound.on ? (
            <Button variant="ghost" size="sm" aria-pressed="true" onClick={sound.disable}>
              <Volume2 aria-hidden="true" /> {t("merchant.dashboard.soundOn")}
            </Button>
          ) : (
            <Button variant="outline" size="sm" onClick={sound.enable}>
              <VolumeX aria-hidden="true" /> {t("merchant.dashboard.enableSound")}
            </Button>
          )}
        </div>
        <DetectionStatus live={live} detecting={detecting} />
      </div>
      <CreatePaymentForm onOpen={setOpenId} />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <PaymentHistory onOpen={setOpenId} emptyText={t("merchant.history.empty")} words={historyWords} />
        <UnattributedInbox />
      </div>
      <Sheet open={editing} onOpenChange={(open) => (open ? setEditing(true) : closeEditing())}>
        <SheetContent
          side="right"
          closeLabel={t("merchant.edit.closeWithoutSaving")}
          className="w-full overflow-y-auto sm:max-w-xl"
        >
          <SheetHeader>
            <SheetTitle>{t("merchant.edit.title")}</SheetTitle>
            <SheetDescription>{t("merchant.edit.description")}</SheetDescription>
          </SheetHeader>
          <div className="px-4 pb-8">
            <React.Suspense fallback={<LoadingPart />}>
              <EditBusinessForm
                merchant={merchant}
                signOwnership={signOwnership}
                onDone={() => setEditing(false)}
                onCancel={closeEditing}
                confirmCloseRef={confirmClose}
              />
            </React.Suspense>
          </div>
        </SheetContent>
      </Sheet>
      <PaymentDetailSheet
        id={openId}
        merchant={{ name: merchant.name, brandColor: merchant.brandColor, role: merchant.role }}
        onClose={() => setOpenId(null)}
        onOpen={setOpenId}
      />
      {/* Behind an open sheet the screen would be inert (modal): it waits until the sheet closes. */}
      {notice && !editing && openId === null ? (
        <PaymentNotification payment={notice} onClose={() => setNotice(null)} />
      ) : null}
    </>
  );
}
