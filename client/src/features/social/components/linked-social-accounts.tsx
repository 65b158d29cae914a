import { SOCIAL_PROVIDER_NAMES, SOCIAL_PROVIDERS } from "@common/social";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { describeError } from "@/features/auth/error-message";
import { toast } from "@/hooks/use-toast";
import {
  linkProviderUrl,
  SOCIAL_ACCOUNTS_QUERY_KEY,
  socialAccountsQueryOptions,
  unlinkProvider,
} from "../api/social";
import { ProviderMark } from "./provider-mark";

/** Profile: the social accounts that sign in to this account; link another, or unlink (never the last way in). */
export function LinkedSocialAccountsSection() {
  const queryClient = useQueryClient();
  const accounts = useQuery(socialAccountsQueryOptions());
  const unlink = useMutation({
    mutationFn: unlinkProvider,
    onSuccess: (data) => {
      queryClient.setQueryData(SOCIAL_ACCOUNTS_QUERY_KEY, data);
      toast({ title: "Account unlinked" });
    },
    onError: (error) =>
      toast({ title: "Account not unlinked", description: describeError(error), variant: "destructive" }),
  });
  const linked = accounts.data?.accounts ?? [];
  const free = SOCIAL_PROVIDERS.filter((p) => !linked.some((a) => a.provider === p));
  return (
    <Card aria-labelledby="social-accounts-heading" data-testid="social-accounts-section">
      <CardHeader>
        <CardTitle id="social-accounts-heading">Social accounts</CardTitle>
        <CardDescription>Each of these can sign in to this account.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {accounts.isLoading ? (
          <Spinner label="Loading social accounts" />
        ) : accounts.isError ? (
          <p className="text-destructive text-sm">Could not load them: {describeError(accounts.error)}</p>
        ) : linked.length === 0 ? (
          <p className="text-muted-foreground text-sm">No social account is linked yet.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
            {linked.map((account) => (
              <li key={account.provider} className="flex items-center gap-3 p-3">
                <ProviderMark provider={account.provider} className="size-5 shrink-0" />
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{SOCIAL_PROVIDER_NAMES[account.provider]}</p>
                  <p className="truncate text-muted-foreground text-sm">
                    {[account.name, account.email].filter(Boolean).join(" · ") || "—"}
                    {account.development ? " · development sign-in" : ""}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={unlink.isPending}
                  onClick={() => unlink.mutate(account.provider)}
                  aria-label={`Unlink ${SOCIAL_PROVIDER_NAMES[account.provider]}`}
                >
                  Unlink
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
                Link {SOCIAL_PROVIDER_NAMES[provider]}
              </Button>
            ))}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
