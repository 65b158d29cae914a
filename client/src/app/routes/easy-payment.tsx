import { PAYMENT_REFERENCE_PATTERN } from "@common/payment-values";
import { Zap } from "lucide-react";
import { useSearch } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { sendWithBrowserWallet } from "@/features/payments/browser-wallet-transfer";
import { PayView } from "@/features/payments/components/pay-view";
import { PaymentLookupForm } from "@/features/payments/components/payment-lookup-form";
import { PayWithoutWallet } from "@/features/social/components/pay-without-wallet";
import { useSocialSessionWords } from "@/features/social/sign-in-words";
import { useSocialReturn } from "@/features/social/social-return";
import { ThemeToggle } from "@/features/theme/theme-toggle";
import { useDocumentLanguage, useT } from "@/i18n/i18n";
import { useDocumentTitle } from "@/lib/document-title";

/**
 * /easy-payment?ref=<reference>: the fewest steps to pay one payment. It is the pay page: the merchant and the
 * amount first, then the ways to pay (QR code, wallet app, browser wallet, or sign in with a social account and
 * pay from its managed wallet with one button). Without a valid reference the page asks for one.
 */
export default function EasyPaymentPage() {
  const ref = new URLSearchParams(useSearch()).get("ref")?.trim() ?? "";
  const valid = PAYMENT_REFERENCE_PATTERN.test(ref);
  useDocumentLanguage();
  const t = useT();
  useDocumentTitle(t("pay.lookup.easyTitle"));
  // On the page, not in the ways to pay (shown only while the payment takes one): a social sign-in that came back
  // refused is said whatever the payment's state, and the session's toasts are in the payer's words from the start.
  useSocialReturn();
  useSocialSessionWords();
  if (valid) return <EasyPayment key={ref} reference={ref} />;
  return (
    <PageFrame
      title={t("pay.lookup.easyTitle")}
      icon={Zap}
      width="narrow"
      description={t("pay.lookup.easyDescription")}
    >
      <div className="flex flex-col gap-6">
        {ref ? (
          <p role="alert" className="text-destructive-emphasis text-sm">
            {t("pay.lookup.invalidLink")}
          </p>
        ) : null}
        <PaymentLookupForm
          to={(reference) => `/easy-payment?ref=${reference}`}
          submitLabel={t("pay.lookup.open")}
          action="/easy-payment"
          param="ref"
        />
      </div>
    </PageFrame>
  );
}

function EasyPayment({ reference }: { reference: string }) {
  const t = useT();
  return (
    <PayView
      reference={reference}
      sendTransfer={sendWithBrowserWallet}
      payOptions={PayWithoutWallet}
      headerEnd={
        <ThemeToggle labels={{ dark: t("pay.header.themeDark"), light: t("pay.header.themeLight") }} />
      }
    />
  );
}
