import { Plus, Webhook } from "lucide-react";
import { Link } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { SignInPrompt } from "@/features/auth/components/sign-in-prompt";
import { useMerchant } from "@/features/payments/dashboard/api/get-merchant";
import { merchantQueryState } from "@/features/payments/dashboard/components/merchant-query-state";
import { WebhooksView } from "@/features/webhooks/components/webhooks-view";

function MerchantWebhooks() {
  const merchant = useMerchant();
  const fallback = merchantQueryState(merchant);
  if (fallback) return fallback;
  if (!merchant.data) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-xl border border-border bg-card p-4 sm:p-6">
        <p className="font-semibold">No business registered yet</p>
        <p className="text-muted-foreground text-sm">
          Webhooks tell your server about your business's payments. Register it on the merchant dashboard
          first.
        </p>
        <Button asChild>
          <Link href="/merchant">
            <Plus aria-hidden="true" /> Register your business
          </Link>
        </Button>
      </div>
    );
  }
  return <WebhooksView />;
}

export default function WebhooksPage() {
  const { user, isLoading } = useAuth();
  return (
    <PageFrame
      title="Webhooks"
      icon={Webhook}
      description="Signed notifications to your own server when a payment is created, paid, completed or expires."
    >
      {isLoading ? (
        <Spinner size="lg" label="Checking your session" />
      ) : user ? (
        <MerchantWebhooks />
      ) : (
        <SignInPrompt reason="Sign in to manage your business's webhooks." />
      )}
    </PageFrame>
  );
}
