import { useParams, useSearch } from "wouter";
import { sendWithBrowserWallet } from "@/features/payments/browser-wallet-transfer";
import { EmbedReporter } from "@/features/payments/components/embed-reporter";
import { PayView } from "@/features/payments/components/pay-view";
import { PayWithoutWallet } from "@/features/social/components/pay-without-wallet";
import { useSocialSessionWords } from "@/features/social/sign-in-words";
import { useSocialReturn } from "@/features/social/social-return";
import { ThemeToggle } from "@/features/theme/theme-toggle";
import { useDocumentLanguage, useT } from "@/i18n/i18n";
import { useDocumentTitle } from "@/lib/document-title";

export default function PayPage() {
  const { paymentReference } = useParams<{ paymentReference: string }>();
  const search = new URLSearchParams(useSearch());
  // Opened by the pay button of another website (decision 035): it reports to that site.
  const embedOrigin = search.get("embed") === "1" ? search.get("origin") : null;
  useDocumentLanguage();
  const t = useT();
  useDocumentTitle(t("pay.meta.title"));
  // On the page, not in the ways to pay (shown only while the payment takes one): a social sign-in that came back
  // refused is said whatever the payment's state, and the session's toasts are in the payer's words from the start.
  useSocialReturn();
  useSocialSessionWords();
  return (
    <>
      <PayView
        key={paymentReference}
        reference={paymentReference}
        sendTransfer={sendWithBrowserWallet}
        payOptions={PayWithoutWallet}
        headerEnd={
          <ThemeToggle labels={{ dark: t("pay.header.themeDark"), light: t("pay.header.themeLight") }} />
        }
      />
      {embedOrigin ? (
        <EmbedReporter key={paymentReference} reference={paymentReference} origin={embedOrigin} />
      ) : null}
    </>
  );
}
