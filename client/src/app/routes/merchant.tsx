import { Store } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import type { SignOwnership } from "@/features/payments/dashboard/components/business-setup-form";
import { BusinessSwitcher } from "@/features/payments/dashboard/components/business-switcher";
import { MerchantDashboard } from "@/features/payments/dashboard/components/merchant-dashboard";
import { useDocumentLanguage, useT } from "@/i18n/i18n";

/** The wallet code (wagmi, viem) loads only when the merchant signs the ownership proof. */
const signOwnership: SignOwnership = (getChallenge) =>
  import("@/features/wallet/sign-ownership").then((m) => m.signOwnershipProof(getChallenge));

/** /merchant, in the reader's language (issue 37): the "merchant" area, with the history's words of "reports". */
export default function MerchantDashboardPage() {
  useDocumentLanguage();
  const t = useT();
  return (
    <PageFrame
      title={t("merchant.page.title")}
      icon={Store}
      backdrop
      width="wide"
      description={t("merchant.page.description")}
    >
      <BusinessSwitcher />
      <MerchantDashboard signOwnership={signOwnership} />
    </PageFrame>
  );
}
