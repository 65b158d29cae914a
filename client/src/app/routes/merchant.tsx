import { Store } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import type { SignOwnership } from "@/features/payments/dashboard/components/business-setup-form";
import { BusinessSwitcher } from "@/features/payments/dashboard/components/business-switcher";
import { MerchantDashboard } from "@/features/payments/dashboard/components/merchant-dashboard";

/** The wallet code (wagmi, viem) loads only when the merchant signs the ownership proof. */
const signOwnership: SignOwnership = (getChallenge) =>
  import("@/features/wallet/sign-ownership").then((m) => m.signOwnershipProof(getChallenge));

export default function MerchantDashboardPage() {
  return (
    <PageFrame
      title="Merchant Dashboard"
      icon={Store}
      backdrop
      width="wide"
      description="Create payment requests, share payment links and QR codes, and watch payments arrive as they are confirmed."
    >
      <BusinessSwitcher />
      <MerchantDashboard signOwnership={signOwnership} />
    </PageFrame>
  );
}
