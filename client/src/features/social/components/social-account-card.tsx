import { SOCIAL_PROVIDER_NAMES } from "@common/social-values";
import { useQuery } from "@tanstack/react-query";
import { FlaskConical, LogOut, RotateCw } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { formatTokenAmount, shortAddress } from "@/features/payments/format";
import { useLocale, useT } from "@/i18n/i18n";
import { managedWalletQueryOptions } from "../api/social";
import { isDemoUser, logoutSocial, useSocialSession } from "../social-session";
import { ProviderMark } from "./provider-mark";

/** PRODUCT.md decision 3: the invented user is always marked, with words and an icon. */
export function DemoModeBadge({ label = "Demo mode" }: { label?: string }) {
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full bg-warning px-2 py-0.5 font-semibold text-warning-foreground text-xs"
      data-testid="demo-mode-badge"
    >
      <FlaskConical aria-hidden="true" className="size-3.5" />
      {label}
    </span>
  );
}

/**
 * The stored social-login user (spec sections 3 and 4): who signed in with which provider, the wallet and its
 * balance, and sign-out. The fallback and emergency users (section 8) are shown as what they are: a demo with no
 * wallet and no tokens, never with an address or balance that could pass for theirs. In the reader's language
 * (the "wallet" area's words, which its pages load with the account's).
 */
export function SocialAccountCard() {
  const t = useT();
  const locale = useLocale();
  const { user, reloading } = useSocialSession();
  const [signingOut, setSigningOut] = React.useState(false);
  // The balance is the server's chain read, refreshed (issue 34 item 5): the sign-in answer's balance is a
  // snapshot of that moment and goes stale as soon as tokens arrive.
  const live = useQuery({ ...managedWalletQueryOptions(), enabled: user?.mode === "account" });
  if (!user) return null;
  const current =
    live.data && live.data.address.toLowerCase() === user.walletAddress.toLowerCase() ? live.data : null;
  const provider = SOCIAL_PROVIDER_NAMES[user.userInfo.provider];
  const signOut = async () => {
    setSigningOut(true);
    await logoutSocial();
    setSigningOut(false);
  };

  return (
    <Card data-testid="social-account" className={isDemoUser(user) ? "border-warning/60" : undefined}>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <ProviderMark provider={user.userInfo.provider} className="size-5 shrink-0" />
          <span className="min-w-0 break-words">
            {isDemoUser(user)
              ? t("wallet.card.demoName", {
                  // The invented users' stored names are English ("Demo user"): named in the reader's words.
                  name: t(user.mode === "emergency" ? "wallet.card.emergencyUser" : "wallet.card.demoUser"),
                  provider,
                })
              : t("wallet.card.name", { name: user.userInfo.name, provider })}
          </span>
          {isDemoUser(user) ? <DemoModeBadge label={t("wallet.demo.badge")} /> : null}
        </CardTitle>
        {user.mode === "account" ? (
          <CardDescription className="break-all">{user.userInfo.email}</CardDescription>
        ) : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {user.mode === "account" ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">{t("wallet.card.wallet")}</dt>
            <dd className="text-end font-mono" dir="ltr" title={user.walletAddress}>
              {shortAddress(user.walletAddress)}
            </dd>
            <dt className="text-muted-foreground">
              {current ? t("wallet.checkout.balance") : t("wallet.card.balanceAtSignIn")}
            </dt>
            <dd className="text-end tabular-nums" data-testid="social-balance">
              <span dir="ltr">
                {current
                  ? `${formatTokenAmount(current.balance, locale)} ${current.symbol}`
                  : `${formatTokenAmount(user.balance, locale)} CPXTB`}
              </span>
            </dd>
          </dl>
        ) : user.mode === "demo" ? (
          <div className="flex flex-col gap-2 text-sm" data-testid="demo-explanation">
            <p>{t("wallet.card.demoExplanation")}</p>
            <p className="text-muted-foreground">
              {t("wallet.card.demoBalance", { balance: formatTokenAmount(user.balance, locale) })}
            </p>
          </div>
        ) : (
          <p role="alert" className="text-sm" data-testid="emergency-explanation">
            {t("wallet.card.emergency")}
          </p>
        )}
        {reloading ? (
          <p role="status" className="flex items-center gap-2 text-muted-foreground text-sm">
            <Spinner size="sm" label={t("wallet.card.reloadingLabel")} /> {t("wallet.card.reloading")}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {user.mode === "emergency" ? (
            <Button className="h-11" onClick={() => window.location.reload()}>
              <RotateCw aria-hidden="true" />
              {t("wallet.card.reload")}
            </Button>
          ) : null}
          <Button variant="outline" className="h-11" disabled={signingOut} onClick={signOut}>
            <LogOut aria-hidden="true" />
            {signingOut
              ? t("account.sessions.signingOut")
              : isDemoUser(user)
                ? t("wallet.demo.leave")
                : t("account.sessions.signOut")}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/** The notice's words in the reader's language, from a translated page (the pay page); English otherwise. */
export type DemoNoticeWords = { badge: string; cannot: string; explanation: string; leave: string };

/** For pages whose action a demo user cannot take (pay, buy): says so, and offers a way out of the demo. */
export function DemoModeNotice({ action = "pay", words }: { action?: string; words?: DemoNoticeWords }) {
  const { user } = useSocialSession();
  if (!isDemoUser(user)) return null;
  const w = words ?? {
    badge: "Demo mode",
    cannot: `A demo user cannot ${action}.`,
    explanation: "It has no wallet and no tokens. Leave demo mode to sign in for real.",
    leave: "Leave demo mode",
  };
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-warning/60 bg-warning/10 p-4 text-sm"
      data-testid="demo-mode-notice"
    >
      <div className="flex flex-wrap items-center gap-2">
        <DemoModeBadge label={w.badge} />
        <span>{w.cannot}</span>
      </div>
      <p className="text-muted-foreground">{w.explanation}</p>
      <Button variant="outline" className="h-11 self-start" onClick={() => void logoutSocial()}>
        <LogOut aria-hidden="true" />
        {w.leave}
      </Button>
    </div>
  );
}

/** True while the visitor is the invented demo user: pages hide what it cannot do. */
export function useDemoMode(): boolean {
  return isDemoUser(useSocialSession().user);
}
