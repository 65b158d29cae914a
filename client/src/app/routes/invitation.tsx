import { MailOpen } from "lucide-react";
import { useParams } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { InvitationAccept } from "@/features/team/components/invitation-accept";
import { useDocumentLanguage, useT } from "@/i18n/i18n";

/** /invitations/:token: join a business's team (decision 021), in the reader's language (issue 37). */
export default function InvitationPage() {
  const { token } = useParams<{ token: string }>();
  useDocumentLanguage();
  const t = useT();
  return (
    <PageFrame
      title={t("team.invitation.title")}
      icon={MailOpen}
      width="narrow"
      description={t("team.invitation.description")}
    >
      <InvitationAccept key={token} token={token} />
    </PageFrame>
  );
}
