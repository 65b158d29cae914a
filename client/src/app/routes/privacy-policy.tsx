import { ShieldCheck } from "lucide-react";
import { LegalDocumentPage } from "@/features/legal/components/legal-document-page";

export default function PrivacyPolicyPage() {
  return <LegalDocumentPage slug="privacy-policy" icon={ShieldCheck} />;
}
