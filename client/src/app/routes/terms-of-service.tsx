import { ScrollText } from "lucide-react";
import { LegalDocumentPage } from "@/features/legal/components/legal-document-page";

export default function TermsOfServicePage() {
  return <LegalDocumentPage slug="terms-of-service" icon={ScrollText} />;
}
