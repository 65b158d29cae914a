import type { Payment } from "@common/payments";
import * as React from "react";
import { liveSocket } from "@/lib/live-socket";
import { queryClient } from "@/lib/query-client";
import { paymentDetailQueryKey } from "./api/get-payment-detail";
import { upsertHistoryPayment } from "./api/get-payment-history";
import { inboxQueryKey, upsertRecentPayment } from "./api/payments";

/**
 * The signed-in owner's payments over the shared socket: every change lands in the recent list; `onPayment`
 * hears each change (the notification screen). Returns whether the subscription is active.
 */
export function useLiveMerchant(onPayment: (payment: Payment, event: string) => void): boolean {
  const [subscribed, setSubscribed] = React.useState(false);
  const listener = React.useRef(onPayment);
  listener.current = onPayment;
  React.useEffect(() => {
    const release = liveSocket.retain();
    const offStatus = liveSocket.onStatus((open) => !open && setSubscribed(false));
    const offOk = liveSocket.on("merchantSubscribed", () => setSubscribed(true));
    const offError = liveSocket.on("merchantError", (m) => {
      setSubscribed(false);
      console.warn("Live payments unavailable:", m.message);
    });
    const offUpdate = liveSocket.on("merchantPaymentUpdate", (message) => {
      const payment = message.payment as Payment;
      upsertRecentPayment(payment);
      upsertHistoryPayment(payment);
      // An open detail view refetches its timeline and transfers.
      void queryClient.invalidateQueries({ queryKey: paymentDetailQueryKey(payment.id) });
      // An assignment or a new unmatched transfer changes the inbox too.
      void queryClient.invalidateQueries({ queryKey: inboxQueryKey });
      listener.current(payment, String(message.event));
    });
    const offOpen = liveSocket.onOpen(() => liveSocket.send({ type: "subscribeMerchant" }));
    return () => {
      offOpen();
      offUpdate();
      offError();
      offOk();
      offStatus();
      release();
    };
  }, []);
  return subscribed;
}
