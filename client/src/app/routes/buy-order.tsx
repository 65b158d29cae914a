import { Coins } from "lucide-react";
import { useParams } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { OrderView, type SendEth } from "@/features/buy/components/order-view";

/** The wallet code loads only when the buyer presses the pay button. */
const sendEth: SendEth = (payment, onStep) =>
  import("@/features/wallet/send-eth-payment").then((m) => m.sendEthPayment(payment, onStep));

export default function BuyOrderPage() {
  const { id = "" } = useParams<{ id: string }>();
  return (
    <PageFrame title="Your CPXTB purchase" documentTitle="CPXTB purchase" icon={Coins} width="narrow">
      <OrderView id={id} sendEth={sendEth} />
    </PageFrame>
  );
}
