import { Link2 } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { LinksView } from "@/features/links/components/links-view";
import { useMerchant } from "@/features/payments/dashboard/api/get-merchant";
import { merchantQueryState } from "@/features/payments/dashboard/components/merchant-query-state";
import { NoBusinessPrompt } from "@/features/payments/dashboard/components/no-business-prompt";

function MerchantLinks() {
  const merchant = useMerchant();
  const fallback = merchantQueryState(merchant);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <NoBusinessPrompt reason="Payment links take payments for your business. Register it on the merchant dashboard first." />
    );
  }
  return <LinksView canEdit={merchant.data.role !== "staff"} />;
}

export default function LinksPage() {
  const { user, isLoading } = useAuth();
  return (
    <PageFrame
      title="Payment Links"
      icon={Link2}
      description="One link, paid many times: share it, print it, or sell it at the counter as a product."
    >
      {isLoading ? (
        <Spinner size="lg" label="Checking your session" />
      ) : user ? (
        <MerchantLinks />
      ) : (
        <SignInPrompt reason="Sign in to manage your business's payment links." />
      )}
    </PageFrame>
  );
}
