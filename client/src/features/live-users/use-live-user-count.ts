import { liveUserCountOf } from "@common/live-user-count.ts";
import * as React from "react";
import { liveSocket } from "@/lib/live-socket";

const POLL_MS = 30_000;

/** The live user count while the socket is open; null while it is not (the widget then hides). */
export function useLiveUserCount(): number | null {
  const [online, setOnline] = React.useState(liveSocket.isOpen);
  const [count, setCount] = React.useState<number | null>(null);

  React.useEffect(() => {
    const release = liveSocket.retain();
    const accept = (message: unknown) => {
      const count = liveUserCountOf(message);
      if (count !== null) setCount(count);
      else console.warn("Live users: unexpected message", message);
    };
    const offs = [
      liveSocket.on("userCount", accept),
      liveSocket.on("liveUserCount", accept),
      liveSocket.on("connected", accept),
      liveSocket.onStatus((open) => {
        setOnline(open);
        if (!open) setCount(null);
      }),
      liveSocket.onOpen(() => liveSocket.send({ type: "getUserCount" })),
    ];
    const poll = setInterval(() => liveSocket.send({ type: "getUserCount" }), POLL_MS);
    return () => {
      clearInterval(poll);
      for (const off of offs) off();
      release();
    };
  }, []);

  return online ? count : null;
}
