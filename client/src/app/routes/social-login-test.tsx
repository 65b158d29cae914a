import { SOCIAL_PROVIDERS, type SocialProvider } from "@common/social";
import { useQuery } from "@tanstack/react-query";
import { FlaskConical } from "lucide-react";
import * as React from "react";
import { PageFrame } from "@/components/layout/page-frame";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { postSocialAuth, realLoginUrl, socialProvidersQueryOptions } from "@/features/social/api/social";
import { ProviderMark } from "@/features/social/components/provider-mark";
import { SocialAccountCard } from "@/features/social/components/social-account-card";
import { SocialSignIn } from "@/features/social/components/social-sign-in";
import { markRealLoginPending } from "@/features/social/social-session";
import { isApiError } from "@/lib/api-client";

const MODE_TEXT = {
  provider: "configured (real provider)",
  development: "not configured: development sign-in page",
  unavailable: "not configured",
} as const;

/** /social-login-test: each provider, whether it is configured, a button per flow and the JSON it returned. */
export default function SocialLoginTestPage() {
  const providers = useQuery(socialProvidersQueryOptions());
  const [result, setResult] = React.useState<{ provider: SocialProvider; json: unknown } | null>(null);

  const tryBasic = async (provider: SocialProvider) => {
    try {
      const json = await postSocialAuth(provider, {
        redirectUrl: window.location.href,
        enableWeb3Auth: false,
        enableRealLogin: false,
      });
      setResult({ provider, json });
    } catch (error) {
      setResult({
        provider,
        json: isApiError(error) ? { status: error.status, ...(error.body as object) } : String(error),
      });
    }
  };

  return (
    <PageFrame
      title="Social Login Test"
      icon={FlaskConical}
      width="narrow"
      description="Check sign-in with Google, Facebook, X and Apple, and the wallet each social account receives."
    >
      <div className="flex flex-col gap-4">
        <SocialAccountCard />
        <Card>
          <CardHeader>
            <CardTitle>Sign in</CardTitle>
          </CardHeader>
          <CardContent>
            <SocialSignIn />
          </CardContent>
        </Card>
        {SOCIAL_PROVIDERS.map((provider) => {
          const status = providers.data?.providers.find((p) => p.provider === provider);
          return (
            <Card key={provider} data-testid={`provider-${provider}`}>
              <CardHeader className="flex-row items-center gap-3">
                <ProviderMark provider={provider} className="size-6" />
                <div className="flex flex-col">
                  <CardTitle>{status?.name ?? provider}</CardTitle>
                  <span className="text-muted-foreground text-sm">
                    {status ? MODE_TEXT[status.mode] : "…"}
                  </span>
                </div>
              </CardHeader>
              <CardContent className="flex flex-wrap gap-2">
                <Button
                  variant="outline"
                  disabled={status?.mode === "unavailable"}
                  onClick={() => {
                    // Finished (and the page reloaded) on the way back, like the sign-in buttons' real login.
                    markRealLoginPending(provider);
                    window.location.assign(realLoginUrl(provider, window.location.href));
                  }}
                >
                  Try the redirect flow
                </Button>
                <Button
                  variant="outline"
                  className="h-auto min-h-11 max-w-full whitespace-normal break-all text-left"
                  onClick={() => tryBasic(provider)}
                >
                  Call POST /api/social-auth/{provider}
                </Button>
              </CardContent>
            </Card>
          );
        })}
        {result ? (
          <Card>
            <CardHeader>
              <CardTitle>Answer for {result.provider}</CardTitle>
            </CardHeader>
            <CardContent>
              <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs" data-testid="social-result">
                {JSON.stringify(result.json, null, 2)}
              </pre>
            </CardContent>
          </Card>
        ) : null}
      </div>
    </PageFrame>
  );
}
