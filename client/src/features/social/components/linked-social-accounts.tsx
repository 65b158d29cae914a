import { SOCIAL_PROVIDER_NAMES, SOCIAL_PROVIDERS } from "@common/social-values";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { accountErrorText } from "@/features/auth/account-error-text";
import { toast } from "@/hooks/use-toast";
import { useT } from "@/i18n/i18n";
import {
  linkProviderUrl,
  SOCIAL_ACCOUNTS_QUERY_KEY,
  socialAccountsQueryOptions,
  unlinkProvider,
} from "../api/social";
import { ProviderMark } from "./provider-mark";

/**
 * Profile: the social accounts that sign in to this account; link another, or unlink (never the last way in). In
 * the reader's language, as the profile is (the account area's words).
 */
export function LinkedSocialAccountsSection() {
  const queryClient = useQueryClient();
  const t = useT();
  const accounts = useQuery(socialAccountsQueryOptions());
  const unlink = useMutation({
    mutationFn: unlinkProvider,
    onSuccess: (data) => {
      queryClient.setQueryData(SOCIAL_ACCOUNTS_QUERY_KEY, data);
      toast({ title: t("account.social.unlinked") });
    },
    onError: (error) =>
      toast({
        title: t("account.social.notUnlinked"),
        description: accountErrorText(error),
        variant: "destructive",
      }),
  });
  const linked = accounts.data?.accounts ?? [];
  const free = SOCIAL_PROVIDERS.filter((p) => !linked.some((a) => a.provider === p));
  return (
    <Card aria-labelledby="social-accounts-heading" data-testid="social-accounts-section">
      <CardHeader>
        <CardTitle id="social-accounts-heading">{t("account.social.title")}</CardTitle>
        <CardDescription>{t("account.social.description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {accounts.isLoading ? (
          <Spinner label={t("account.social.loading")} />
        ) : accounts.isError ? (
          <p className="text-destructive text-sm">
            {t("account.social.loadFailed", { reason: accountErrorText(accounts.error) })}
          </p>
        ) : linked.length === 0 ? (
          <p className="text-muted-foreground text-sm">{t("account.social.none")}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
            {linked.map((account) => (
              <li key={account.provider} className="flex items-center gap-3 p-3">
                <ProviderMark provider={account.provider} className="size-5 shrink-0" />
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{SOCIAL_PROVIDER_NAMES[account.provider]}</p>
                  <p className="truncate text-muted-foreground text-sm">
                    {[account.name, account.email].filter(Boolean).join(" · ") || "—"}
                    {account.development ? ` · ${t("account.social.development")}` : ""}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={unlink.isPending}
                  onClick={() => unlink.mutate(account.provider)}
                  aria-label={t("account.social.unlinkLabel", {
                    provider: SOCIAL_PROVIDER_NAMES[account.provider],
                  })}
                >
                  {t("account.social.unlink")}
                </Button>
              </li>
            ))}
          </ul>
        )}
        {free.length > 0 ? (
          <div className="flex flex-wrap gap-2">
            {free.map((provider) => (
              <Button
                key={provider}
                variant="outline"
                onClick={() => window.location.assign(linkProviderUrl(provider, "/profile"))}
              >
                <ProviderMark provider={provider} className="size-4" />
                {t("account.social.link", { provider: SOCIAL_PROVIDER_NAMES[provider] })}
              </Button>
            ))}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
