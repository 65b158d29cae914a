import type { PublicPayment } from "@common/payments";
import * as React from "react";
import { type LiveState, liveSocket } from "@/lib/live-socket";
import { queryClient } from "@/lib/query-client";
import { publicPaymentQueryKey } from "./api/get-public-payment";

/**
 * Transfers to a watched payment's address that matched no payment, by reference, as the live channel told them
 * while the page was open (their amounts only: the server never says whose they were). Not kept across loads.
 */
const unmatched = new Map<string, readonly string[]>();
const unmatchedListeners = new Set<() => void>();
const NONE: readonly string[] = [];
function addUnmatched(reference: string, amount: string) {
  unmatched.set(reference, [...(unmatched.get(reference) ?? NONE), amount]);
  for (const listener of unmatchedListeners) listener();
}
function clearUnmatched(reference: string) {
  if (!unmatched.delete(reference)) return;
  for (const listener of unmatchedListeners) listener();
}
const subscribeUnmatched = (onChange: () => void) => {
  unmatchedListeners.add(onChange);
  return () => unmatchedListeners.delete(onChange);
};

/** The amounts of transfers to this payment's address that matched no payment, seen while the page is open. */
export function useUnmatchedTransfers(reference: string): readonly string[] {
  return React.useSyncExternalStore(
    subscribeUnmatched,
    () => unmatched.get(reference) ?? NONE,
    () => NONE,
  );
}

const subscribeStatus = (onChange: () => void) => liveSocket.onStatus(() => onChange());
const socketOpen = () => liveSocket.isOpen;
const serverSocketOpen = () => false;

/**
 * Subscribes the page's shared socket to one payment: the snapshot and every later change land in the query
 * cache, so the page never polls. Returns where the live connection stands: closed before it ever opened for this
 * page is "connecting", not "lost".
 */
export function useLivePayment(reference: string): LiveState {
  // Not open while a server-rendered page hydrates (the server's HTML says so), even if the socket opened meanwhile
  // for another part of the page: then the status updates right after (decision 017).
  const open = React.useSyncExternalStore(subscribeStatus, socketOpen, serverSocketOpen);
  const [openedOnce, setOpenedOnce] = React.useState(false);
  if (open && !openedOnce) setOpenedOnce(true);
  React.useEffect(() => {
    const release = liveSocket.retain();
    const offUpdate = liveSocket.on("paymentUpdate", (message) => {
      const payment = message.payment as PublicPayment | undefined;
      if (payment?.reference !== reference) return;
      const before = queryClient.getQueryData<PublicPayment>(publicPaymentQueryKey(reference));
      // A transfer credited to this payment (its hash pasted, say) was likely the one seen unmatched.
      if (before && before.amountReceivedBase !== payment.amountReceivedBase) clearUnmatched(reference);
      queryClient.setQueryData(publicPaymentQueryKey(reference), payment);
    });
    const offUnmatched = liveSocket.on("unmatchedTransfer", (message) => {
      if (message.reference === reference && typeof message.amount === "string")
        addUnmatched(reference, message.amount);
    });
    const offOpen = liveSocket.onOpen(() => liveSocket.send({ type: "subscribePayment", reference }));
    return () => {
      liveSocket.send({ type: "unsubscribePayment", reference });
      offOpen();
      offUpdate();
      offUnmatched();
      release();
    };
  }, [reference]);
  return open ? "live" : openedOnce ? "lost" : "connecting";
}
