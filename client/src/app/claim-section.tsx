import { useQuery } from "@tanstack/react-query";
import * as React from "react";
import { walletsQueryOptions } from "@/features/auth/api/siwe";
import { useAuth } from "@/features/auth/auth-provider";
import { ClaimCard, type ClaimWallet } from "@/features/claim/components/claim-card";
import { managedWalletQueryOptions } from "@/features/social/api/social";
import { claimDevice } from "@/features/wallet/wallet-storage";
import { useT } from "@/i18n/i18n";

/**
 * Composes the claim card with the account's wallets: those linked by signing in with a browser wallet (or in
 * the profile) and the managed wallet of a social sign-in. Lazily loaded with the buy page.
 */
export default function ClaimSection() {
  const { user, isLoading } = useAuth();
  const t = useT();
  const signedIn = user !== null;
  const linked = useQuery({ ...walletsQueryOptions(), enabled: signedIn });
  const managed = useQuery({ ...managedWalletQueryOptions(), enabled: signedIn });
  const wallets = React.useMemo<ClaimWallet[] | null>(() => {
    if (linked.isPending || managed.isPending) return null;
    const list: ClaimWallet[] = (linked.data?.wallets ?? []).map((w) => ({
      address: w.address,
      label: t("buy.claim.browserWallet"),
      kind: "browser",
    }));
    const own = managed.data?.address;
    if (own && !list.some((w) => w.address.toLowerCase() === own.toLowerCase())) {
      list.push({ address: own, label: t("buy.claim.managedWallet"), kind: "managed" });
    }
    return list;
  }, [linked.isPending, linked.data, managed.isPending, managed.data, t]);
  if (isLoading) return null;
  return <ClaimCard signedIn={signedIn} wallets={signedIn ? wallets : []} device={claimDevice} />;
}
