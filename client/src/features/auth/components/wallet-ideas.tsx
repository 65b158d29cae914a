import { BadgeCheck, Store, Wallet } from "lucide-react";
import { Link } from "wouter";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useMerchant } from "@/features/payments/dashboard/api/get-merchant";

const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

/**
 * /profile explains the two ideas of "wallet" before its wallet sections: the business's receiving wallet (where
 * payments go, proven by a signature, changed in Edit business) and wallets linked for sign-in (a way in to this
 * account, holding nothing here). An explanatory block only: the sections themselves live below it.
 */
export function WalletIdeas() {
  const merchant = useMerchant();
  const business = merchant.data;
  return (
    <Card aria-labelledby="wallet-ideas-heading" role="region" data-testid="wallet-ideas">
      <CardHeader>
        <CardTitle id="wallet-ideas-heading">Two kinds of wallet</CardTitle>
        <CardDescription>They do different jobs and can be different wallets.</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="grid gap-4 text-sm sm:grid-cols-2">
          <div className="flex gap-3">
            <Store aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
            <dl className="flex min-w-0 flex-col gap-1">
              <dt className="font-semibold">Your business&rsquo;s receiving wallet</dt>
              <dd className="text-muted-foreground">
                Where your customers&rsquo; payments arrive. It was proven yours by a signature when it was
                set, and only the owner or an admin changes it, in Edit business on the dashboard.
              </dd>
              {business ? (
                <dd className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="receiving-wallet">
                  <span className="font-medium">{business.name}:</span>
                  <span className="font-mono" title={business.walletAddress}>
                    {short(business.walletAddress)}
                  </span>
                  <span className="inline-flex items-center gap-1 text-muted-foreground">
                    <BadgeCheck aria-hidden="true" className="size-4 text-success" /> proven{" "}
                    {new Date(business.walletVerifiedAt).toLocaleDateString()}
                  </span>
                </dd>
              ) : merchant.isSuccess ? (
                <dd>
                  <Link href="/merchant" className="text-primary underline underline-offset-4">
                    Register your business
                  </Link>{" "}
                  to set one.
                </dd>
              ) : null}
            </dl>
          </div>
          <div className="flex gap-3">
            <Wallet aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
            <dl className="flex min-w-0 flex-col gap-1">
              <dt className="font-semibold">Wallets linked for sign-in</dt>
              <dd className="text-muted-foreground">
                Your own wallets that can sign in to this account with &ldquo;Sign in with Ethereum&rdquo;.
                They receive no payments and hold nothing for you here; link or remove them below.
              </dd>
            </dl>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
