import {
  REAL_LOGIN_REDIRECT_MS,
  SOCIAL_PROVIDER_NAMES,
  SOCIAL_PROVIDERS,
  type SocialProvider,
} from "@common/social-values";
import { useQuery } from "@tanstack/react-query";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { realLoginUrl, socialProvidersQueryOptions } from "../api/social";
import {
  basicLoginRequested,
  cancelBasicLogin,
  markRealLoginPending,
  startBasicLogin,
  useSocialSession,
} from "../social-session";
import { ProviderMark } from "./provider-mark";

/** What the buttons say: English here, the payer's language when the checkout passes its own (pay-without-wallet). */
export type SignInWords = {
  orContinueWith: string;
  continueWith: (provider: string) => string;
  redirecting: string;
  redirectingLabel: string;
  redirectingTo: (provider: string) => string;
  notConfigured: string;
  waiting: string;
  finishInWindow: (provider: string) => string;
  cancel: string;
  developmentNote: string;
  custodialNote: string;
};

// The English-only screens (/auth, /social-login-test) load no catalog; their words stay here.
const ENGLISH: SignInWords = {
  orContinueWith: "or continue with",
  continueWith: (provider) => `Continue with ${provider}`,
  redirecting: "Redirecting...",
  redirectingLabel: "Redirecting",
  redirectingTo: (provider) => `Redirecting to ${provider}...`,
  notConfigured: "not configured",
  waiting: "Waiting",
  finishInWindow: (provider) => `Finish signing in with ${provider} in the window that opened.`,
  cancel: "Cancel",
  developmentNote: "Providers without credentials open a development sign-in page on this server.",
  custodialNote: "A social account comes with a custodial CPXTB wallet: this platform holds its key.",
};

/**
 * The four provider buttons. Real login is the default (spec section 4): a visible "Redirecting..." for 1.5 s,
 * then the browser goes to the provider (or, without credentials outside production, the development page)
 * and comes back to this page, which finishes the login and reloads 0.5 s later. With `useBasicLogin=true` in
 * the address a window runs the provider flow instead and this page stays (the basic login).
 */
export function SocialSignIn({
  redirectUrl,
  words = ENGLISH,
}: {
  redirectUrl?: string;
  words?: SignInWords;
}) {
  const providers = useQuery(socialProvidersQueryOptions());
  const basic = basicLoginRequested();
  const { waitingFor } = useSocialSession();
  const [redirecting, setRedirecting] = React.useState<SocialProvider | null>(null);
  const timer = React.useRef<ReturnType<typeof setTimeout>>(undefined);
  React.useEffect(() => () => clearTimeout(timer.current), []);

  const modeOf = (provider: SocialProvider) =>
    providers.data?.providers.find((p) => p.provider === provider)?.mode ?? "provider";

  const start = (provider: SocialProvider) => {
    if (basic) {
      void startBasicLogin(provider);
      return;
    }
    markRealLoginPending(provider);
    setRedirecting(provider);
    const target = realLoginUrl(provider, redirectUrl ?? window.location.href);
    timer.current = setTimeout(() => window.location.assign(target), REAL_LOGIN_REDIRECT_MS);
  };

  return (
    <div className="flex flex-col gap-3" data-testid="social-sign-in">
      <div className="flex items-center gap-3 text-muted-foreground text-sm">
        <span className="h-px flex-1 bg-border" />
        {words.orContinueWith}
        <span className="h-px flex-1 bg-border" />
      </div>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {SOCIAL_PROVIDERS.map((provider) => {
          const name = SOCIAL_PROVIDER_NAMES[provider];
          const mode = modeOf(provider);
          const unavailable = mode === "unavailable";
          return (
            <Button
              key={provider}
              type="button"
              variant="outline"
              className="h-11 justify-start gap-3"
              disabled={unavailable || redirecting !== null}
              onClick={() => start(provider)}
              aria-describedby={unavailable ? `social-${provider}-note` : undefined}
            >
              {redirecting === provider ? (
                <Spinner size="sm" label={words.redirectingLabel} />
              ) : (
                <ProviderMark provider={provider} className="size-5 shrink-0" />
              )}
              <span>{redirecting === provider ? words.redirecting : words.continueWith(name)}</span>
              {unavailable ? (
                <span id={`social-${provider}-note`} className="ms-auto text-muted-foreground text-xs">
                  {words.notConfigured}
                </span>
              ) : null}
            </Button>
          );
        })}
      </div>
      {redirecting ? (
        <p role="status" className="text-center text-muted-foreground text-sm">
          {words.redirectingTo(SOCIAL_PROVIDER_NAMES[redirecting])}
        </p>
      ) : waitingFor ? (
        <div role="status" className="flex flex-wrap items-center justify-center gap-2 text-center text-sm">
          <Spinner size="sm" label={words.waiting} />
          <span>{words.finishInWindow(SOCIAL_PROVIDER_NAMES[waitingFor])}</span>
          <Button variant="ghost" className="h-11" onClick={cancelBasicLogin}>
            {words.cancel}
          </Button>
        </div>
      ) : providers.data?.providers.some((p) => p.mode === "development") ? (
        <p className="text-center text-muted-foreground text-xs">{words.developmentNote}</p>
      ) : null}
      <p className="text-center text-muted-foreground text-xs">{words.custodialNote}</p>
    </div>
  );
}
