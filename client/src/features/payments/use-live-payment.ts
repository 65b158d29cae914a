import type { PublicPayment } from "@common/payments";
import * as React from "react";
import { type LiveState, liveSocket } from "@/lib/live-socket";
import { queryClient } from "@/lib/query-client";
import { publicPaymentQueryKey } from "./api/get-public-payment";

/**
 * Transfers to a watched payment's address that matched no payment, by reference, as the live channel told them
 * while the page was open (their amounts only: the server never says whose they were). Not kept across loads.
 */
export type UnmatchedSeen = {
  amount: string;
  /** What the payment had received when it was seen: once that changes, it may have been this transfer. */
  receivedBase: string | undefined;
};
const unmatched = new Map<string, readonly UnmatchedSeen[]>();
const unmatchedListeners = new Set<() => void>();
const NONE: readonly UnmatchedSeen[] = [];
function addUnmatched(reference: string, amount: string) {
  const receivedBase = queryClient.getQueryData<PublicPayment>(
    publicPaymentQueryKey(reference),
  )?.amountReceivedBase;
  unmatched.set(reference, [...(unmatched.get(reference) ?? NONE), { amount, receivedBase }]);
  for (const listener of unmatchedListeners) listener();
}
const subscribeUnmatched = (onChange: () => void) => {
  unmatchedListeners.add(onChange);
  return () => unmatchedListeners.delete(onChange);
};

/**
 * Transfers to this payment's address that matched no payment, seen while the page is open and since which the
 * payment received nothing (a credit, its hash pasted say, may have been that transfer).
 */
export function useUnmatchedTransfers(payment: PublicPayment): readonly string[] {
  const seen = React.useSyncExternalStore(
    subscribeUnmatched,
    () => unmatched.get(payment.reference) ?? NONE,
    () => NONE,
  );
  return React.useMemo(
    () => seen.filter((s) => s.receivedBase === payment.amountReceivedBase).map((s) => s.amount),
    [seen, payment.amountReceivedBase],
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
      if (payment?.reference === reference)
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
