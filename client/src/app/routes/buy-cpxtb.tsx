import { returnToPath } from "@common/buy";
import { useQuery } from "@tanstack/react-query";
import { Coins } from "lucide-react";
import * as React from "react";
import { useLocation, useSearch } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { useAuth } from "@/features/auth/auth-provider";
import { BuyForm } from "@/features/buy/components/buy-form";
import { usePrice } from "@/features/price/api/get-price";
import { managedWalletQueryOptions } from "@/features/social/api/social";
import { DemoModeNotice, useDemoMode } from "@/features/social/components/social-account-card";
import { useSocialSessionWords } from "@/features/social/sign-in-words";
import { useSocialReturn } from "@/features/social/social-return";
import { useDocumentLanguage, useT } from "@/i18n/i18n";

/** The wallet code (wagmi, viem) loads only when the buyer continues. */
const connectWallet = () =>
  import("@/features/wallet/send-eth-payment").then((m) => m.connectBrowserWallet());
const proveWallet = (signedIn: boolean) =>
  import("@/features/buy/prove-buyer-wallet").then((m) => m.proveBuyerWallet(signedIn));

/** "Claim Test CPXTB Tokens" (the spec's "claim tokens" screen, no route of its own) loads after the form. */
const ClaimSection = React.lazy(() => import("../claim-section"));

export default function BuyCpxtbPage() {
  useDocumentLanguage();
  const t = useT();
  useSocialReturn();
  useSocialSessionWords();
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const back = search.get("return");
  const returnTo = back && returnToPath.safeParse(back).success ? back : undefined;
  const tokens = search.get("tokens");
  const demo = useDemoMode();
  const { user } = useAuth();
  const price = usePrice();
  const priceSource = price.status === "success" ? price.data.source : null;
  // A signed-in account with a managed wallet can have the CPXTB delivered there (`?to=managed` picks it).
  const managed = useQuery({ ...managedWalletQueryOptions(), enabled: user !== null, retry: false });
  return (
    <PageFrame
      title={t("buy.page.title")}
      icon={Coins}
      backdrop
      width="narrow"
      description={t("buy.page.description", { source: priceSource ?? "quoted" })}
    >
      {demo ? (
        // A demo user (PRODUCT.md decision 3) can neither buy nor claim.
        <DemoModeNotice
          words={{
            badge: t("wallet.demo.badge"),
            cannot: t("buy.page.demoCannot"),
            explanation: t("wallet.demo.explanation"),
            leave: t("wallet.demo.leave"),
          }}
        />
      ) : (
        <>
          <BuyForm
            connectWallet={connectWallet}
            proveWallet={() => proveWallet(user !== null)}
            initialTokens={tokens && /^\d{1,15}(\.\d{1,6})?$/.test(tokens) ? tokens : undefined}
            returnTo={returnTo}
            managedAddress={user ? managed.data?.address : null}
            initialDeliverTo={search.get("to") === "managed" ? "managed" : undefined}
            onOrder={(id) => navigate(`/buy-cpxtb/orders/${id}`)}
            priceSource={priceSource}
          />
          <div className="mt-6">
            <React.Suspense fallback={null}>
              <ClaimSection />
            </React.Suspense>
          </div>
        </>
      )}
    </PageFrame>
  );
}
