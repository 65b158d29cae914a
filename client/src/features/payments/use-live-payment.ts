import type { PublicPayment } from "@common/payments";
import * as React from "react";
import { type LiveState, liveSocket } from "@/lib/live-socket";
import { queryClient } from "@/lib/query-client";
import { publicPaymentQueryKey } from "./api/get-public-payment";

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
    const offOpen = liveSocket.onOpen(() => liveSocket.send({ type: "subscribePayment", reference }));
    return () => {
      liveSocket.send({ type: "unsubscribePayment", reference });
      offOpen();
      offUpdate();
      release();
    };
  }, [reference]);
  return open ? "live" : openedOnce ? "lost" : "connecting";
}
