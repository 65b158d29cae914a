import { Coins } from "lucide-react";
import { useParams } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { OrderView, type SendEth } from "@/features/buy/components/order-view";
import { useDocumentLanguage, useT } from "@/i18n/i18n";

/** The wallet code loads only when the buyer presses the pay button. */
const sendEth: SendEth = (payment, onStep) =>
  import("@/features/wallet/send-eth-payment").then((m) => m.sendEthPayment(payment, onStep));

export default function BuyOrderPage() {
  const { id = "" } = useParams<{ id: string }>();
  useDocumentLanguage();
  const t = useT();
  return (
    <PageFrame
      title={t("buy.order.pageTitle")}
      documentTitle={t("buy.order.documentTitle")}
      icon={Coins}
      width="narrow"
    >
      <OrderView id={id} sendEth={sendEth} />
    </PageFrame>
  );
}
