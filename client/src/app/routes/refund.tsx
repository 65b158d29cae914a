import { Undo2 } from "lucide-react";
import { useParams } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { RefundLinkView } from "@/features/payments/components/refund-link-view";

/** /refund/:token: the payer gives the address a merchant should send a refund to (decision 018). */
export default function RefundLinkPage() {
  const { token } = useParams<{ token: string }>();
  return (
    <PageFrame
      title="Refund address"
      icon={Undo2}
      width="narrow"
      description="The merchant will send your refund to the wallet address you enter here."
    >
      <RefundLinkView key={token} token={token} />
    </PageFrame>
  );
}
