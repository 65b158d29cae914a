import {
  isSocialReturnReason,
  SOCIAL_PROVIDER_NAMES,
  SOCIAL_PROVIDERS,
  SOCIAL_RETURN_PARAM,
  SOCIAL_RETURN_PROVIDER_PARAM,
  type SocialProvider,
  type SocialReturnReason,
} from "@common/social-values";
import * as React from "react";
import { toast } from "@/hooks/use-toast";
import { useT } from "@/i18n/i18n";

/** A social sign-in that came back refused: `?socialLogin=<reason>&socialProvider=<provider>` (server refusal.ts). */
export type SocialReturn = { reason: SocialReturnReason; provider: SocialProvider };

/** The refusal this address reports, or null (no report, or not one the server sends). */
export function readSocialReturn(search: string): SocialReturn | null {
  const params = new URLSearchParams(search);
  const reason = params.get(SOCIAL_RETURN_PARAM);
  const provider = params.get(SOCIAL_RETURN_PROVIDER_PARAM);
  if (!isSocialReturnReason(reason)) return null;
  if (!(SOCIAL_PROVIDERS as readonly (string | null)[]).includes(provider)) return null;
  return { reason, provider: provider as SocialProvider };
}

/** Literal ids, so the catalog check sees each one used. */
const MESSAGES: Record<SocialReturnReason, { title: string; text: string }> = {
  cancelled: { title: "wallet.return.cancelled.title", text: "wallet.return.cancelled.text" },
  expired: { title: "wallet.return.expired.title", text: "wallet.return.expired.text" },
  failed: { title: "wallet.return.failed.title", text: "wallet.return.failed.text" },
  unreachable: { title: "wallet.return.unreachable.title", text: "wallet.return.unreachable.text" },
  linkedElsewhere: {
    title: "wallet.return.linkedElsewhere.title",
    text: "wallet.return.linkedElsewhere.text",
  },
  alreadyLinked: { title: "wallet.return.alreadyLinked.title", text: "wallet.return.alreadyLinked.text" },
  signInAgain: { title: "wallet.return.signInAgain.title", text: "wallet.return.signInAgain.text" },
};

/** What happened, in the reader's language (the `wallet` area, which every page that starts a sign-in loads). */
export function socialReturnWords(
  t: ReturnType<typeof useT>,
  { reason, provider }: SocialReturn,
): { title: string; text: string } {
  const values = { provider: SOCIAL_PROVIDER_NAMES[provider] };
  return { title: t(MESSAGES[reason].title, values), text: t(MESSAGES[reason].text, values) };
}

/**
 * Takes the report off the address (history.replaceState, so a reload or a shared link does not say it again) and
 * answers it; null when the address has none.
 */
export function takeSocialReturn(): SocialReturn | null {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(SOCIAL_RETURN_PARAM) && !url.searchParams.has(SOCIAL_RETURN_PROVIDER_PARAM))
    return null;
  const back = readSocialReturn(url.search);
  url.searchParams.delete(SOCIAL_RETURN_PARAM);
  url.searchParams.delete(SOCIAL_RETURN_PROVIDER_PARAM);
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  return back;
}

/**
 * For the pages where a social sign-in starts (/auth, the checkout's pay-without-a-wallet, /buy-cpxtb, /profile):
 * a sign-in that came back refused is told once, in a toast. Nothing is retried or completed with the failed flow
 * (social-session.ts's resume skips a page opened with a report).
 */
export function useSocialReturn() {
  const t = useT();
  React.useEffect(() => {
    const back = takeSocialReturn();
    if (!back) return;
    const words = socialReturnWords(t, back);
    toast({
      title: words.title,
      description: words.text,
      // Declining at the provider is the person's own choice, not an error.
      variant: back.reason === "cancelled" ? "default" : "destructive",
    });
  }, [t]);
}
