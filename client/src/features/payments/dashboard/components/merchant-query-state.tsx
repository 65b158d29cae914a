import { KeyRound, RefreshCw, UserX } from "lucide-react";
import type * as React from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import type { t as translate } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-client";
import { useSwitchBusiness } from "../api/businesses";
import type { useMerchant } from "../api/get-merchant";

/**
 * The words of this state in English, by their ids in the `merchant` area. A translated page passes its `t` (from
 * `useT()`, and loads the `merchant` area): the words are then its reader's. The pages still in English (links,
 * webhooks, developers) pass nothing and get these, so no foreign sentence sits in an English page.
 */
const ENGLISH = {
  "merchant.state.twoFactorTitle": "Two-factor sign-in is required",
  "merchant.state.twoFactorAction": "Set up two-factor sign-in",
  "merchant.state.accessLostTitle": "You no longer have access to this business",
  "merchant.state.backToOwn": "Back to my own account",
  "merchant.state.loadFailed": "Your business could not be loaded.",
  "merchant.state.tryAgain": "Try again",
} as const;
type StateWord = keyof typeof ENGLISH;

/** The server's sentences of a refused business, by their exact English wording (server/src/modules/merchants). */
const KNOWN_MESSAGES: Record<string, string> = {
  "You are no longer a member of this business. Ask its owner to invite you again.":
    "merchant.state.noLongerMember",
  "This business requires two-factor sign-in. Set up an authenticator app or a passkey in your profile first.":
    "merchant.state.twoFactorText",
  "You no longer have access to this business.": "merchant.state.noAccess",
};

type Say = (id: StateWord) => string;

function errorOf(error: unknown): { code: string; message: string } | null {
  if (!isApiError(error) || error.status !== 403) return null;
  const body = error.body as { error?: { code?: string; message?: string } } | undefined;
  return body?.error?.code && body.error.message
    ? { code: body.error.code, message: body.error.message }
    : null;
}

/** A member who was removed, or who lacks the second factor the business requires (decision 021). */
function AccessRefused({ code, message, say }: { code: string; message: string; say: Say }) {
  const leave = useSwitchBusiness();
  if (code === "TWO_FACTOR_REQUIRED") {
    return (
      <div
        role="alert"
        data-testid="two-factor-required"
        className="flex flex-col items-start gap-3 rounded-xl border border-border p-4"
      >
        <p className="font-semibold">{say("merchant.state.twoFactorTitle")}</p>
        <p className="text-muted-foreground text-sm">{message}</p>
        <Button asChild>
          <Link href="/profile#two-factor">
            <KeyRound aria-hidden="true" /> {say("merchant.state.twoFactorAction")}
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
        <UserX aria-hidden="true" className="size-4 text-destructive-emphasis" />{" "}
        {say("merchant.state.accessLostTitle")}
      </p>
      <p className="text-muted-foreground text-sm">{message}</p>
      <Button variant="outline" disabled={leave.isPending} onClick={() => leave.mutate(null)}>
        {say("merchant.state.backToOwn")}
      </Button>
    </div>
  );
}

/**
 * What a page built on the business shows while it loads or when it could not be loaded; null once it is there
 * (or known to be missing), so the page renders itself. `t`: a translated page's translator (it loads the
 * `merchant` area); without it, English. A function rather than catalog words of each page: the team, reports,
 * counter and dashboard show the same six sentences, kept once.
 */
export function merchantQueryState(
  merchant: ReturnType<typeof useMerchant>,
  t?: typeof translate,
): React.ReactElement | null {
  const say: Say = (id) => (t ? t(id) : ENGLISH[id]);
  if (merchant.isPending) {
    return (
      <div aria-busy="true" className="h-64 animate-pulse rounded-xl bg-muted motion-reduce:animate-none" />
    );
  }
  if (merchant.isError) {
    const refused = errorOf(merchant.error);
    if (refused) {
      const known = KNOWN_MESSAGES[refused.message.trim()];
      const message = t && known ? t(known) : refused.message;
      return <AccessRefused code={refused.code} message={message} say={say} />;
    }
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-border p-4">
        <p className="font-semibold">{say("merchant.state.loadFailed")}</p>
        <Button variant="outline" onClick={() => merchant.refetch()}>
          <RefreshCw aria-hidden="true" /> {say("merchant.state.tryAgain")}
        </Button>
      </div>
    );
  }
  return null;
}
