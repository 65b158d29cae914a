import { BadgeCheck, Store, Wallet } from "lucide-react";
import { Link } from "wouter";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useMerchant } from "@/features/payments/dashboard/api/get-merchant";
import { formatDate } from "@/features/payments/format";
import { useLocale, useT } from "@/i18n/i18n";

const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

/**
 * /profile explains the two ideas of "wallet" before its wallet sections: the business's receiving wallet (where
 * payments go, proven by a signature, changed in Edit business) and wallets linked for sign-in (a way in to this
 * account, holding nothing here). An explanatory block only: the sections themselves live below it.
 */
export function WalletIdeas() {
  const merchant = useMerchant();
  const t = useT();
  const locale = useLocale();
  const business = merchant.data;
  return (
    <Card aria-labelledby="wallet-ideas-heading" role="region" data-testid="wallet-ideas">
      <CardHeader>
        <CardTitle id="wallet-ideas-heading">{t("account.ideas.title")}</CardTitle>
        <CardDescription>{t("account.ideas.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="grid gap-4 text-sm sm:grid-cols-2">
          <div className="flex gap-3">
            <Store aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
            <dl className="flex min-w-0 flex-col gap-1">
              <dt className="font-semibold">{t("account.ideas.receiving")}</dt>
              <dd className="text-muted-foreground">{t("account.ideas.receivingText")}</dd>
              {business ? (
                <dd className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="receiving-wallet">
                  <span className="font-medium">{business.name}:</span>
                  <span className="font-mono" title={business.walletAddress} dir="ltr">
                    {short(business.walletAddress)}
                  </span>
                  <span className="inline-flex items-center gap-1 text-muted-foreground">
                    <BadgeCheck aria-hidden="true" className="size-4 text-success" />
                    {t("account.ideas.proven", { date: formatDate(business.walletVerifiedAt, locale) })}
                  </span>
                </dd>
              ) : merchant.isSuccess ? (
                <dd>
                  <Link href="/merchant" className="text-primary underline underline-offset-4">
                    {t("account.ideas.register")}
                  </Link>
                </dd>
              ) : null}
            </dl>
          </div>
          <div className="flex gap-3">
            <Wallet aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
            <dl className="flex min-w-0 flex-col gap-1">
              <dt className="font-semibold">{t("account.ideas.signIn")}</dt>
              <dd className="text-muted-foreground">{t("account.ideas.signInText")}</dd>
            </dl>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
