import { SIWE_LINK_STATEMENT } from "@common/siwe";
import { useQuery } from "@tanstack/react-query";
import { Settings, UserRound } from "lucide-react";
import * as React from "react";
import { useLocation, useRoute, useSearch } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { Spinner } from "@/components/ui/spinner";
import { useAccountPage } from "@/features/auth/account-page";
import { reportReaderPlace } from "@/features/auth/api/account";
import type { WalletSigner } from "@/features/auth/api/siwe";
import { useAuth } from "@/features/auth/auth-provider";
import {
  AccountSection,
  EmailSection,
  LinkedWalletsSection,
  PasswordSection,
  PreferencesSection,
  SessionsSection,
} from "@/features/auth/components/profile-sections";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { TwoFactorSection } from "@/features/auth/components/two-factor-section";
import { WalletIdeas } from "@/features/auth/components/wallet-ideas";
import { socialAccountsQueryOptions } from "@/features/social/api/social";
import { LinkedSocialAccountsSection } from "@/features/social/components/linked-social-accounts";
import { useSocialReturn } from "@/features/social/social-return";
import { toast } from "@/hooks/use-toast";
import { useT } from "@/i18n/i18n";
import { lazyComponent } from "@/lib/lazy-component";

/** The managed wallet's section (with viem, for the address checksum) loads only for an account that has one. */
const ManagedWalletSection = lazyComponent(
  () => import("@/features/social/components/managed-wallet-section"),
);

/** The wallet code loads only when a wallet is linked. */
const signLinkMessage: WalletSigner = (getNonce) =>
  import("@/features/wallet/siwe-signer").then((m) =>
    m.signSiweMessage({ statement: SIWE_LINK_STATEMENT, getNonce }),
  );

const EMAIL_OUTCOMES = {
  verified: {
    title: "account.profile.emailVerified",
    description: "account.profile.emailVerifiedText",
  },
  invalid: {
    title: "account.profile.emailInvalid",
    description: "account.profile.emailInvalidText",
    variant: "destructive" as const,
  },
  taken: {
    title: "account.profile.emailTaken",
    description: "account.profile.emailTakenText",
    variant: "destructive" as const,
  },
};

/**
 * Serves /profile and /settings (spec section 2: /settings shows the profile page), in the reader's language
 * (issue 37); its language menu is in Preferences, and a signed-in reader's choice is kept with the account.
 */
export default function ProfilePage() {
  useAccountPage();
  const t = useT();
  useSocialReturn();
  const [isSettings] = useRoute("/settings");
  const { user, isLoading } = useAuth();
  const search = useSearch();
  const [location, navigate] = useLocation();
  // Only an account with a managed wallet (from a social sign-in) loads its section; the others never ask for it.
  const social = useQuery({ ...socialAccountsQueryOptions(), enabled: Boolean(user) });

  // The browser's zone and language, kept for the emails' times (no toast: nothing the person changed).
  const signedIn = Boolean(user);
  React.useEffect(() => {
    if (signedIn) void reportReaderPlace().catch(() => {});
  }, [signedIn]);

  // The email confirmation link lands here with its outcome; say it once, then clean the address bar.
  React.useEffect(() => {
    const outcome = new URLSearchParams(search).get("email");
    if (outcome && outcome in EMAIL_OUTCOMES) {
      const { title, description, ...rest } = EMAIL_OUTCOMES[outcome as keyof typeof EMAIL_OUTCOMES];
      toast({ title: t(title), description: t(description), ...rest });
      navigate(location, { replace: true });
    }
  }, [search, location, navigate, t]);

  return (
    <PageFrame
      title={isSettings ? t("account.profile.settingsTitle") : t("account.profile.title")}
      icon={isSettings ? Settings : UserRound}
      description={t("account.profile.description")}
    >
      {isLoading ? (
        <Spinner size="lg" label={t("account.profile.checkingSession")} />
      ) : user ? (
        <>
          <AccountSection user={user} />
          {social.data?.managedWallet ? (
            <React.Suspense fallback={<Spinner label={t("account.profile.loadingWallet")} />}>
              <ManagedWalletSection />
            </React.Suspense>
          ) : null}
          <EmailSection user={user} />
          <PasswordSection user={user} />
          <TwoFactorSection hasPassword={user.hasPassword} />
          <WalletIdeas />
          <LinkedWalletsSection user={user} signer={signLinkMessage} />
          <LinkedSocialAccountsSection />
          <SessionsSection />
          <PreferencesSection user={user} />
        </>
      ) : (
        <SignInPrompt
          reason={t("account.profile.signInReason")}
          title={t("account.profile.signInTitle")}
          action={t("account.profile.signIn")}
        />
      )}
    </PageFrame>
  );
}
