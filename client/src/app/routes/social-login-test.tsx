import { SOCIAL_PROVIDERS, type SocialProvider } from "@common/social-values";
import { useQuery } from "@tanstack/react-query";
import { FlaskConical } from "lucide-react";
import * as React from "react";
import { PageFrame } from "@/components/layout/page-frame";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useAccountPage } from "@/features/auth/account-page";
import { postSocialAuth, realLoginUrl, socialProvidersQueryOptions } from "@/features/social/api/social";
import { ProviderMark } from "@/features/social/components/provider-mark";
import { SocialAccountCard } from "@/features/social/components/social-account-card";
import { SocialSignIn } from "@/features/social/components/social-sign-in";
import { signInWords } from "@/features/social/sign-in-words";
import { markRealLoginPending } from "@/features/social/social-session";
import { useT } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";
import { isApiError } from "@/lib/api-client";

const MODE_TEXT = {
  provider: "account.socialTest.mode.provider",
  development: "account.socialTest.mode.development",
  unavailable: "account.socialTest.mode.unavailable",
} as const;

/**
 * /social-login-test: each provider, whether it is configured, a button per flow and the JSON it returned, in the
 * reader's language as the account screens are (`useAccountPage`: its toasts and the session's too); the request
 * and the JSON stay as written, left to right.
 */
export default function SocialLoginTestPage() {
  const locale = useAccountPage();
  const t = useT();
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
      title={t("account.socialTest.title")}
      icon={FlaskConical}
      width="narrow"
      description={t("account.socialTest.description")}
    >
      <div className="flex flex-col gap-4">
        <SocialAccountCard />
        <Card>
          <CardHeader>
            <CardTitle>{t("account.socialTest.signIn")}</CardTitle>
          </CardHeader>
          <CardContent>
            <SocialSignIn words={signInWords(t)} />
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
                    {status ? t(MODE_TEXT[status.mode]) : "…"}
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
                  {t("account.socialTest.redirect")}
                </Button>
                <Button
                  variant="outline"
                  className="h-auto min-h-11 max-w-full whitespace-normal break-all text-start"
                  onClick={() => tryBasic(provider)}
                >
                  {t("account.socialTest.call", {
                    request: isolate(`POST /api/social-auth/${provider}`, locale),
                  })}
                </Button>
              </CardContent>
            </Card>
          );
        })}
        {result ? (
          <Card>
            <CardHeader>
              <CardTitle>{t("account.socialTest.answer", { provider: result.provider })}</CardTitle>
            </CardHeader>
            <CardContent>
              <pre
                dir="ltr"
                className="overflow-x-auto rounded-md bg-muted p-3 text-xs"
                data-testid="social-result"
              >
                {JSON.stringify(result.json, null, 2)}
              </pre>
            </CardContent>
          </Card>
        ) : null}
      </div>
    </PageFrame>
  );
}
