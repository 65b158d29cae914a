import { PUBLIC_PAGES } from "@common/page-meta";
import { Presentation } from "lucide-react";
import { PageFrame } from "@/components/layout/page-frame";
import { SlideDeck } from "@/features/presentation/components/slide-deck";
import { usePageMeta } from "@/lib/page-meta";

const meta = PUBLIC_PAGES["/presentation"];

export default function PresentationPage() {
  usePageMeta(meta);
  return (
    <PageFrame title="Platform Presentation" icon={Presentation} width="wide" description={meta.description}>
      <SlideDeck />
    </PageFrame>
  );
}
