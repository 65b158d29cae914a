import type { Payment } from "@common/payments";
import { CircleAlert, CircleCheck, X } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { useLocale, useT } from "@/i18n/i18n";
import { isolate, Ltr } from "@/i18n/ltr";
import { formatTokenAmount, formatUsdAmount } from "../../format";

/** Full-screen notice of a completed or partial payment; Escape, the button or a click closes it. */
export function PaymentNotification({ payment, onClose }: { payment: Payment; onClose: () => void }) {
  const close = React.useRef<HTMLButtonElement>(null);
  const t = useT();
  const locale = useLocale();
  React.useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    close.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && onClose();
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [onClose]);
  const paid = payment.status === "completed" || payment.status === "paid_late";
  const Icon = paid ? CircleCheck : CircleAlert;
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="payment-notification-title"
      data-testid="payment-notification"
      className="fixed inset-0 z-50 flex items-center justify-center bg-background/95 p-6 backdrop-blur"
    >
      <div className="flex max-w-md flex-col items-center gap-4 text-center">
        <Icon aria-hidden="true" className={paid ? "size-20 text-success" : "size-20 text-warning"} />
        <h2 id="payment-notification-title" className="font-bold text-3xl">
          {t(paid ? "merchant.notification.received" : "merchant.notification.partial")}
        </h2>
        <div>
          <p className="font-bold text-4xl tabular-nums">
            <Ltr>{formatTokenAmount(payment.amountReceived, locale)} CPXTB</Ltr>
          </p>
          {payment.amountReceivedUsd ? (
            <p className="text-lg tabular-nums" data-testid="notification-usd">
              <Ltr>{formatUsdAmount(payment.amountReceivedUsd, locale)}</Ltr>
            </p>
          ) : null}
          {payment.orderId ? (
            <p className="text-lg" data-testid="notification-order">
              {t("merchant.common.order", { orderId: isolate(payment.orderId, locale) })}
            </p>
          ) : null}
        </div>
        <p className="text-muted-foreground">
          {paid
            ? payment.description || payment.orderId
              ? t(
                  payment.overpaid ? "merchant.notification.whatPaidOver" : "merchant.notification.whatPaid",
                  {
                    what: payment.description ?? payment.orderId ?? "",
                  },
                )
              : t(payment.overpaid ? "merchant.notification.paidOver" : "merchant.notification.paid")
            : t("merchant.notification.due", {
                amount: isolate(`${formatTokenAmount(payment.amountDue, locale)} CPXTB`, locale),
              })}
        </p>
        <Button ref={close} size="lg" onClick={onClose}>
          <X aria-hidden="true" /> {t("merchant.notification.dismiss")}
        </Button>
      </div>
    </div>
  );
}
