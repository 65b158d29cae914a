import type { Payment } from "@common/payments";
import * as React from "react";
import { type LiveState, liveSocket } from "@/lib/live-socket";
import { queryClient } from "@/lib/query-client";
import { merchantQueryKey } from "./api/get-merchant";
import { paymentDetailQueryKey } from "./api/get-payment-detail";
import { historyQueryKeyRoot, upsertHistoryPayment } from "./api/get-payment-history";
import { inboxQueryKey } from "./api/payments";

/**
 * The signed-in owner's payments over the shared socket: every change (a payment created elsewhere too) lands in
 * the history lists; `onPayment` hears each change (the notification screen). The socket connects again when
 * the session changes (app/data-layer.tsx), and this subscribes again on every connection. Returns where the
 * subscription stands: not subscribed yet ("connecting"), active ("live"), or lost since ("lost": the socket
 * closed or the server refused it).
 */
export function useLiveMerchant(onPayment: (payment: Payment, event: string) => void): LiveState {
  const [state, setState] = React.useState<LiveState>("connecting");
  const listener = React.useRef(onPayment);
  listener.current = onPayment;
  React.useEffect(() => {
    // Set once a subscription was lost: what changed meanwhile was not heard, so the lists are fetched again.
    let missed = false;
    let active = false;
    const release = liveSocket.retain();
    const offStatus = liveSocket.onStatus((open) => {
      if (open) return;
      if (active) missed = true;
      active = false;
      setState("lost");
    });
    const offOk = liveSocket.on("merchantSubscribed", () => {
      active = true;
      setState("live");
      if (!missed) return;
      missed = false;
      void queryClient.invalidateQueries({ queryKey: historyQueryKeyRoot });
      void queryClient.invalidateQueries({ queryKey: inboxQueryKey });
    });
    const offError = liveSocket.on("merchantError", (m) => {
      setState("lost");
      // Removed from the business (or its requirements changed): the page asks again and shows why.
      if (m.code === "FORBIDDEN" || m.code === "TWO_FACTOR_REQUIRED") {
        void queryClient.invalidateQueries({ queryKey: merchantQueryKey });
        return;
      }
      console.warn("Live payments unavailable:", m.message);
    });
    const offUpdate = liveSocket.on("merchantPaymentUpdate", (message) => {
      const payment = message.payment as Payment;
      upsertHistoryPayment(payment);
      // An open detail view refetches its timeline and transfers.
      void queryClient.invalidateQueries({ queryKey: paymentDetailQueryKey(payment.id) });
      // An assignment changes the inbox too (a created payment cannot).
      if (message.event !== "payment.created")
        void queryClient.invalidateQueries({ queryKey: inboxQueryKey });
      listener.current(payment, String(message.event));
    });
    // A transfer to the business's address that matched no payment.
    const offInbox = liveSocket.on("merchantInboxUpdate", () => {
      void queryClient.invalidateQueries({ queryKey: inboxQueryKey });
    });
    const offOpen = liveSocket.onOpen(() => liveSocket.send({ type: "subscribeMerchant" }));
    return () => {
      offOpen();
      offInbox();
      offUpdate();
      offError();
      offOk();
      offStatus();
      release();
    };
  }, []);
  return state;
}
