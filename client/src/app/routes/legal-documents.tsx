import { Scale } from "lucide-react";
import { LegalDocumentPage } from "@/features/legal/components/legal-document-page";

export default function LegalDocumentsPage() {
  return <LegalDocumentPage slug="legal-documents" icon={Scale} />;
}
