import { KeyRound, RefreshCw, UserX } from "lucide-react";
import type * as React from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { isApiError } from "@/lib/api-client";
import { useSwitchBusiness } from "../api/businesses";
import type { useMerchant } from "../api/get-merchant";

function errorOf(error: unknown): { code: string; message: string } | null {
  if (!isApiError(error) || error.status !== 403) return null;
  const body = error.body as { error?: { code?: string; message?: string } } | undefined;
  return body?.error?.code && body.error.message
    ? { code: body.error.code, message: body.error.message }
    : null;
}

/** A member who was removed, or who lacks the second factor the business requires (decision 021). */
function AccessRefused({ code, message }: { code: string; message: string }) {
  const leave = useSwitchBusiness();
  if (code === "TWO_FACTOR_REQUIRED") {
    return (
      <div
        role="alert"
        data-testid="two-factor-required"
        className="flex flex-col items-start gap-3 rounded-xl border border-border p-4"
      >
        <p className="font-semibold">Two-factor sign-in is required</p>
        <p className="text-muted-foreground text-sm">{message}</p>
        <Button asChild>
          <Link href="/profile#two-factor">
            <KeyRound aria-hidden="true" /> Set up two-factor sign-in
          </Link>
        </Button>
      </div>
    );
  }
  return (
    <div
      role="alert"
      data-testid="access-lost"
      className="flex flex-col items-start gap-3 rounded-xl border border-border p-4"
    >
      <p className="flex items-center gap-2 font-semibold">
        <UserX aria-hidden="true" className="size-4 text-destructive-emphasis" /> You no longer have access to
        this business
      </p>
      <p className="text-muted-foreground text-sm">{message}</p>
      <Button variant="outline" disabled={leave.isPending} onClick={() => leave.mutate(null)}>
        Back to my own account
      </Button>
    </div>
  );
}

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
    const refused = errorOf(merchant.error);
    if (refused) return <AccessRefused {...refused} />;
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
