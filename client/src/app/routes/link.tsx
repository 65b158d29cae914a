import { useParams } from "wouter";
import { LinkView } from "@/features/links/components/link-view";
import { ThemeToggle } from "@/features/theme/theme-toggle";
import { useDocumentTitle } from "@/lib/document-title";

export default function LinkPage() {
  const { slug } = useParams<{ slug: string }>();
  useDocumentTitle("Pay");
  return <LinkView key={slug} slug={slug} headerEnd={<ThemeToggle />} />;
}
