import { Search } from "lucide-react";
import { useParams } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { PaymentLookupForm } from "@/features/payments/components/payment-lookup-form";
import { PaymentReceipt } from "@/features/payments/components/payment-receipt";
import { ThemeToggle } from "@/features/theme/theme-toggle";
import { useDocumentLanguage, useT } from "@/i18n/i18n";
import { useDocumentTitle } from "@/lib/document-title";

/** Serves /payment (look-up) and /payment/:reference (status and receipt: a checkout page, no app header). */
export default function PaymentPage() {
  const { reference } = useParams<{ reference?: string }>();
  useDocumentLanguage();
  const t = useT();
  if (reference) return <PaymentStatusPage key={reference} reference={reference} />;
  return (
    <PageFrame
      title={t("pay.lookup.findTitle")}
      icon={Search}
      width="narrow"
      description={t("pay.lookup.findDescription")}
    >
      <PaymentLookupForm />
    </PageFrame>
  );
}

function PaymentStatusPage({ reference }: { reference: string }) {
  const t = useT();
  useDocumentTitle(t("pay.receipt.title"));
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 pt-3 pb-16 sm:px-6 sm:pt-8">
      <PaymentReceipt
        reference={reference}
        headerEnd={
          <ThemeToggle labels={{ dark: t("pay.header.themeDark"), light: t("pay.header.themeLight") }} />
        }
      />
    </div>
  );
}
