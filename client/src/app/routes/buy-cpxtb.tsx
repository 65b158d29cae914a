import { Coins } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { PendingFeature } from "@/components/layout/pending-feature";

export default function BuyCpxtbPage() {
  return (
    <PageFrame
      title="Buy CPXTB Tokens"
      icon={Coins}
      backdrop
      description="Get CPXTB to pay merchants: a quoted price, locked for a few minutes, and tokens sent to your wallet once your payment is verified."
    >
      <PendingFeature title="Buying is not available yet">
        When it opens you will be able to pay with ETH from your browser wallet, or with PayPal where it is
        offered. The price you see will always come from the live market, never a made-up number.
      </PendingFeature>
    </PageFrame>
  );
}
