import type { BuyOrder } from "@common/buy";
import * as React from "react";
import { liveSocket } from "@/lib/live-socket";
import { queryClient } from "@/lib/query-client";
import { buyOrderQueryKey } from "./api/buy-api";

/** Follows one order over /ws: every change lands in the query cache, so a reload or a closed tab loses nothing. */
export function useLiveOrder(id: string) {
  React.useEffect(() => {
    const release = liveSocket.retain();
    const offUpdate = liveSocket.on("buyOrderUpdate", (message) => {
      const order = message.order as BuyOrder | undefined;
      if (order?.id === id) queryClient.setQueryData(buyOrderQueryKey(id), order);
    });
    const offOpen = liveSocket.onOpen(() => liveSocket.send({ type: "subscribeBuyOrder", id }));
    return () => {
      offOpen();
      offUpdate();
      release();
    };
  }, [id]);
}
