import type { PublicPayment } from "@common/payments";
import * as React from "react";
import { liveSocket } from "@/lib/live-socket";
import { queryClient } from "@/lib/query-client";
import { publicPaymentQueryKey } from "./api/get-public-payment";

/**
 * Subscribes the page's shared socket to one payment: the snapshot and every later change land in the query
 * cache, so the page never polls. Returns whether the live connection is open.
 */
export function useLivePayment(reference: string): boolean {
  const [open, setOpen] = React.useState(liveSocket.isOpen);
  React.useEffect(() => {
    const release = liveSocket.retain();
    const offStatus = liveSocket.onStatus(setOpen);
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
      offStatus();
      release();
    };
  }, [reference]);
  return open;
}
