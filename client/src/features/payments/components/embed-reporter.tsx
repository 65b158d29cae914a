import { EMBED_MESSAGE_SOURCE, type EmbedMessage, embedOriginKey, embedResultOf } from "@common/embed-values";
import { useQuery } from "@tanstack/react-query";
import * as React from "react";
import { usePublicPayment } from "../api/get-public-payment";

/** The window that embedded this checkout: the page that framed it, or on a phone the page that opened it. */
function embedder(): Window | null {
  if (typeof window === "undefined") return null;
  return window.parent !== window ? window.parent : (window.opener as Window | null);
}

/**
 * The checkout embedded by the pay button (`?embed=1&origin=…`, decision 035) tells the page that embedded it each
 * status and the result (`paid`, `expired`), and asks it to close on Escape. It posts only to `origin`, and only
 * once the server has said the payment's business lists that origin; a page elsewhere hears nothing.
 */
export function EmbedReporter({ reference, origin }: { reference: string; origin: string }) {
  const allowed = useQuery<{ origin: string | null }>({ queryKey: [embedOriginKey(reference, origin)] });
  const payment = usePublicPayment(reference);
  const target = allowed.data?.origin ?? null;
  const status = payment.data?.status;
  const sent = React.useRef<string | null>(null);

  React.useEffect(() => {
    const to = embedder();
    if (!target || !to || !status || sent.current === status) return;
    sent.current = status;
    const base = { source: EMBED_MESSAGE_SOURCE, version: 1, reference, status } as const;
    to.postMessage({ ...base, type: "status" } satisfies EmbedMessage, target);
    const result = embedResultOf(status);
    if (result) to.postMessage({ ...base, type: "result", result } satisfies EmbedMessage, target);
  }, [target, status, reference]);

  useEmbedEscape(target);

  return null;
}

/**
 * Escape inside the frame never reaches the host page's own handler: ask it to close the overlay. `target` is the
 * host page's origin once the server has said the business lists it (null until then: nothing is posted).
 */
export function useEmbedEscape(target: string | null) {
  React.useEffect(() => {
    const to = embedder();
    if (!target || !to) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) {
        to.postMessage({ source: EMBED_MESSAGE_SOURCE, version: 1, type: "close" }, target);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [target]);
}
