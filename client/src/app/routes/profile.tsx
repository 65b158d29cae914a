import { SIWE_LINK_STATEMENT } from "@common/siwe";
import { useQuery } from "@tanstack/react-query";
import { Settings, UserRound } from "lucide-react";
import * as React from "react";
import { useLocation, useRoute, useSearch } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { Spinner } from "@/components/ui/spinner";
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
import { toast } from "@/hooks/use-toast";
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
    title: "Email confirmed",
    description: "Payment notifications and password resets go there now.",
  },
  invalid: {
    title: "This confirmation link cannot be used",
    description: "It was already used, has expired or is incomplete. Send a new one below.",
    variant: "destructive" as const,
  },
  taken: {
    title: "Email already in use",
    description: "Another account has confirmed this address.",
    variant: "destructive" as const,
  },
};

/** Serves /profile and /settings (spec section 2: /settings shows the profile page). */
export default function ProfilePage() {
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
      toast(EMAIL_OUTCOMES[outcome as keyof typeof EMAIL_OUTCOMES]);
      navigate(location, { replace: true });
    }
  }, [search, location, navigate]);

  return (
    <PageFrame
      title={isSettings ? "Settings" : "My Profile"}
      icon={isSettings ? Settings : UserRound}
      description="Your account, the CPXTB wallet held for you, email, password, two-factor sign-in, wallets linked for sign-in, sessions and preferences."
    >
      {isLoading ? (
        <Spinner size="lg" label="Checking your session" />
      ) : user ? (
        <>
          <AccountSection user={user} />
          {social.data?.managedWallet ? (
            <React.Suspense fallback={<Spinner label="Loading your CPXTB wallet" />}>
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
        <SignInPrompt reason="Sign in to see and change your profile and settings." />
      )}
    </PageFrame>
  );
}
