import { useQuery } from "@tanstack/react-query";
import * as React from "react";
import { walletsQueryOptions } from "@/features/auth/api/siwe";
import { useAuth } from "@/features/auth/auth-provider";
import { ClaimCard, type ClaimDevice, type ClaimWallet } from "@/features/claim/components/claim-card";
import { managedWalletQueryOptions } from "@/features/social/api/social";
import { deviceIdKey, lastClaimKey } from "@/features/wallet/wallet-storage";

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function newDeviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dev_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The spec's per-wallet local-storage keys: a device id and the last claim time (cleared on disconnect). */
const device: ClaimDevice = {
  deviceIdFor(address) {
    const store = storage();
    const key = deviceIdKey(address);
    const stored = store?.getItem(key);
    if (stored && /^[A-Za-z0-9_-]{8,64}$/.test(stored)) return stored;
    const id = newDeviceId();
    store?.setItem(key, id);
    return id;
  },
  rememberClaim(address, at) {
    storage()?.setItem(lastClaimKey(address), at);
  },
};

/**
 * Composes the claim card with the account's wallets: those linked by signing in with a browser wallet (or in
 * the profile) and the managed wallet of a social sign-in. Lazily loaded with the buy page.
 */
export default function ClaimSection() {
  const { user, isLoading } = useAuth();
  const signedIn = user !== null;
  const linked = useQuery({ ...walletsQueryOptions(), enabled: signedIn });
  const managed = useQuery({ ...managedWalletQueryOptions(), enabled: signedIn });
  const wallets = React.useMemo<ClaimWallet[] | null>(() => {
    if (linked.isPending || managed.isPending) return null;
    const list: ClaimWallet[] = (linked.data?.wallets ?? []).map((w) => ({
      address: w.address,
      label: "Browser wallet",
    }));
    const own = managed.data?.address;
    if (own && !list.some((w) => w.address.toLowerCase() === own.toLowerCase())) {
      list.push({ address: own, label: "Managed wallet" });
    }
    return list;
  }, [linked.isPending, linked.data, managed.isPending, managed.data]);
  if (isLoading) return null;
  return <ClaimCard signedIn={signedIn} wallets={signedIn ? wallets : []} device={device} />;
}
