import { RefreshCw } from "lucide-react";
import type * as React from "react";
import { Button } from "@/components/ui/button";
import type { useMerchant } from "../api/get-merchant";

/**
 * What a page built on the business shows while it loads or when it could not be loaded; null once it is there
 * (or known to be missing), so the page renders itself.
 */
export function merchantQueryState(merchant: ReturnType<typeof useMerchant>): React.ReactElement | null {
  if (merchant.isPending) {
    return (
      <div aria-busy="true" className="h-64 animate-pulse rounded-xl bg-muted motion-reduce:animate-none" />
    );
  }
  if (merchant.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-border p-4">
        <p className="font-semibold">Your business could not be loaded.</p>
        <Button variant="outline" onClick={() => merchant.refetch()}>
          <RefreshCw aria-hidden="true" /> Try again
        </Button>
      </div>
    );
  }
  return null;
}
