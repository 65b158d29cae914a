import { FlaskConical } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { PendingFeature } from "@/components/layout/pending-feature";

export default function SocialLoginTestPage() {
  return (
    <PageFrame
      title="Social Login Test"
      icon={FlaskConical}
      width="narrow"
      description="Check sign-in with Google, Facebook, X and Apple, and the wallet each social account receives."
    >
      <PendingFeature title="Social sign-in is not available yet">
        The providers can be tried here once social sign-in opens.
      </PendingFeature>
    </PageFrame>
  );
}
