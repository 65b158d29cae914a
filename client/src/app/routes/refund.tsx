import { Undo2 } from "lucide-react";
import { useParams } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { RefundLinkView } from "@/features/payments/components/refund-link-view";
import { useDocumentLanguage, useT } from "@/i18n/i18n";

/** /refund/:token: the payer gives the address a merchant should send a refund to (decision 018). */
export default function RefundLinkPage() {
  const { token } = useParams<{ token: string }>();
  useDocumentLanguage();
  const t = useT();
  return (
    <PageFrame
      title={t("pay.refund.title")}
      icon={Undo2}
      width="narrow"
      description={t("pay.refund.description")}
    >
      <RefundLinkView key={token} token={token} />
    </PageFrame>
  );
}
