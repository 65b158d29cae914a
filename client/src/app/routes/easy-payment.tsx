import { Zap } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { PendingFeature } from "@/components/layout/pending-feature";

export default function EasyPaymentPage() {
  return (
    <PageFrame
      title="Easy Payment"
      icon={Zap}
      width="narrow"
      description="The simplest way to pay: sign in with a social account and pay from the wallet that comes with it."
    >
      <PendingFeature title="Easy payment is not available yet">
        It opens together with social sign-in and payment links. Please do not send any tokens from this page.
      </PendingFeature>
    </PageFrame>
  );
}
