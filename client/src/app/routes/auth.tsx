import { directionOf } from "@common/locales";
import { SIWE_SIGN_IN_STATEMENT } from "@common/siwe";
import { useQuery } from "@tanstack/react-query";
import { Coins, LayoutDashboard, LogIn, Store, Wallet } from "lucide-react";
import { Tabs } from "radix-ui";
import * as React from "react";
import { Link, useLocation, useSearch } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useAccountPage } from "@/features/auth/account-page";
import { getPendingSignIn } from "@/features/auth/api/second-factor";
import type { WalletSigner } from "@/features/auth/api/siwe";
import { useAuth } from "@/features/auth/auth-provider";
import { LoginForm } from "@/features/auth/components/login-form";
import { PasskeySignInButton } from "@/features/auth/components/passkey-sign-in-button";
import { RegisterForm } from "@/features/auth/components/register-form";
import { TwoFactorStep } from "@/features/auth/components/two-factor-step";
import { WalletSignInButton } from "@/features/auth/components/wallet-sign-in-button";
import { safeNextPath } from "@/features/auth/next-path";
import { merchantQueryOptions } from "@/features/payments/dashboard/api/get-merchant";
import { managedWalletQueryOptions } from "@/features/social/api/social";
import { SocialAccountCard } from "@/features/social/components/social-account-card";
import { SocialSignIn } from "@/features/social/components/social-sign-in";
import { signInWords } from "@/features/social/sign-in-words";
import { useSocialReturn } from "@/features/social/social-return";
import { useT } from "@/i18n/i18n";

/** Loads the wallet code only when asked (it stays out of this page's chunk too). */
const signInWithWallet: WalletSigner = (getNonce) =>
  import("@/features/wallet/siwe-signer").then((m) =>
    m.signSiweMessage({ statement: SIWE_SIGN_IN_STATEMENT, getNonce }),
  );

/** Spec section 2: after a successful sign-in or registration, go to the dashboard after 0.5 s. */
const REDIRECT_DELAY_MS = 500;

const tabClass =
  "flex-1 rounded-md px-3 py-2.5 font-medium text-muted-foreground text-sm transition-colors hover:text-foreground data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm min-h-11";

/** /auth, in the reader's language (issue 37): sign in, register, the two-factor step, wallet and passkey sign-in. */
export default function AuthPage() {
  const locale = useAccountPage();
  const t = useT();
  useSocialReturn();
  const { user, pendingSignIn, setPendingSignIn } = useAuth();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [tab, setTab] = React.useState(
    new URLSearchParams(search).get("tab") === "register" ? "register" : "login",
  );
  const [redirecting, setRedirecting] = React.useState(false);
  const timer = React.useRef<ReturnType<typeof setTimeout>>(undefined);
  React.useEffect(() => () => clearTimeout(timer.current), []);

  // A social sign-in of an account with two-factor sign-in comes back here for the code step.
  const askedForCode = new URLSearchParams(search).get("twoFactor") === "required";
  React.useEffect(() => {
    if (!askedForCode) return;
    let active = true;
    getPendingSignIn()
      .then((pending) => {
        if (active && pending) setPendingSignIn(pending);
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [askedForCode, setPendingSignIn]);

  // Where the person was going (an invitation, a payment...): kept through the second factor too.
  const next = safeNextPath(new URLSearchParams(search).get("next"));
  // An invitation's "Create an account" names the invited address: the new member has it on file.
  const invitedEmail = new URLSearchParams(search).get("email") ?? undefined;
  // Signed in without a business (a payer, typically from a social sign-in): payer things first, not the
  // merchant's dashboard.
  const merchant = useQuery({ ...merchantQueryOptions(), enabled: Boolean(user) && !redirecting });
  const payerOnly = merchant.data === null;
  const wallet = useQuery({ ...managedWalletQueryOptions(), enabled: payerOnly, retry: false });
  const goToDashboard = () => {
    setRedirecting(true);
    timer.current = setTimeout(() => navigate(next), REDIRECT_DELAY_MS);
  };

  return (
    <PageFrame
      title={t("account.auth.title")}
      documentTitle={t("account.auth.documentTitle")}
      icon={LogIn}
      width="narrow"
      description={t("account.auth.description")}
    >
      <div className="flex flex-col gap-6">
        <SocialAccountCard />
        {user && !redirecting && next === "/merchant" && payerOnly ? (
          <PayerLanding name={user.displayName ?? user.username} hasWallet={Boolean(wallet.data)} />
        ) : user && !redirecting ? (
          <Card>
            <CardHeader>
              <CardTitle>
                {t("account.auth.signedInAs", { name: user.displayName ?? user.username })}
              </CardTitle>
              <CardDescription className="text-base">{t("account.auth.signedInHint")}</CardDescription>
            </CardHeader>
            <CardContent>
              <Button asChild>
                <Link href={next}>
                  <LayoutDashboard aria-hidden="true" />
                  {next === "/merchant" ? t("account.auth.openDashboard") : t("account.auth.continue")}
                </Link>
              </Button>
            </CardContent>
          </Card>
        ) : pendingSignIn && !user ? (
          <Card>
            <CardContent>
              <TwoFactorStep onSuccess={goToDashboard} />
            </CardContent>
          </Card>
        ) : (
          <Card>
            <CardContent>
              {/* Radix writes its own `dir` (left to right unless told): the tabs and forms follow the reader's. */}
              <Tabs.Root
                value={tab}
                onValueChange={setTab}
                dir={directionOf(locale)}
                className="flex flex-col gap-6"
              >
                <Tabs.List
                  aria-label={t("account.auth.tabsLabel")}
                  className="flex gap-1 rounded-lg bg-muted p-1"
                >
                  <Tabs.Trigger value="login" className={tabClass}>
                    {t("account.auth.signInTab")}
                  </Tabs.Trigger>
                  <Tabs.Trigger value="register" className={tabClass}>
                    {t("account.auth.registerTab")}
                  </Tabs.Trigger>
                </Tabs.List>
                {/* Not a tab stop of its own (Radix makes panels focusable): the form's first field comes next. */}
                <Tabs.Content value="login" tabIndex={-1} className="outline-none">
                  <LoginForm onSuccess={goToDashboard} />
                </Tabs.Content>
                <Tabs.Content value="register" tabIndex={-1} className="outline-none">
                  <RegisterForm onSuccess={goToDashboard} defaultEmail={invitedEmail} />
                </Tabs.Content>
              </Tabs.Root>
              <div className="mt-6 flex flex-col gap-6">
                <WalletSignInButton signer={signInWithWallet} onSuccess={goToDashboard} />
                <PasskeySignInButton onSuccess={goToDashboard} />
                <SocialSignIn words={signInWords(t)} />
              </div>
            </CardContent>
          </Card>
        )}
      </div>
    </PageFrame>
  );
}

/**
 * Where a payer lands after signing in (no business registered): their CPXTB wallet and the payments they made,
 * buying CPXTB for it, and the way to become a merchant.
 */
function PayerLanding({ name, hasWallet }: { name: string; hasWallet: boolean }) {
  const t = useT();
  return (
    <Card data-testid="payer-landing">
      <CardHeader>
        <CardTitle>{t("account.payer.welcome", { name })}</CardTitle>
        <CardDescription className="text-base">
          {hasWallet ? t("account.payer.withWallet") : t("account.payer.withoutWallet")}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          {hasWallet ? (
            <Button asChild className="h-11">
              <Link href="/profile">
                <Wallet aria-hidden="true" />
                {t("account.payer.openWallet")}
              </Link>
            </Button>
          ) : null}
          <Button asChild variant={hasWallet ? "outline" : "default"} className="h-11">
            <Link href={hasWallet ? "/buy-cpxtb?to=managed" : "/buy-cpxtb"}>
              <Coins aria-hidden="true" />
              {t("account.payer.buy")}
            </Link>
          </Button>
          <Button asChild variant="outline" className="h-11">
            <Link href="/merchant">
              <Store aria-hidden="true" />
              {t("account.payer.registerBusiness")}
            </Link>
          </Button>
        </div>
        <p className="text-muted-foreground text-sm">{t("account.payer.selling")}</p>
      </CardContent>
    </Card>
  );
}
