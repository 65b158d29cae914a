import type { PriceResponse } from "@common/price";
import * as React from "react";

export type PriceState =
  | { status: "pending" }
  | { status: "error" }
  | { status: "success"; data: PriceResponse };

/**
 * GET /api/price once on mount. Deliberately a plain fetch rather than TanStack Query: the home page is a shell
 * page without the data layer, and this keeps the query library out of its eager JavaScript (90 KB budget).
 */
export function usePrice(): PriceState {
  const [state, setState] = React.useState<PriceState>({ status: "pending" });
  React.useEffect(() => {
    const controller = new AbortController();
    fetch("/api/price", { credentials: "include", signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`${response.status}`);
        setState({ status: "success", data: (await response.json()) as PriceResponse });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ status: "error" });
      });
    return () => controller.abort();
  }, []);
  return state;
}
