import { MailOpen } from "lucide-react";
import { useParams } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { InvitationAccept } from "@/features/team/components/invitation-accept";

/** /invitations/:token: join a business's team (decision 021). */
export default function InvitationPage() {
  const { token } = useParams<{ token: string }>();
  return (
    <PageFrame
      title="Team invitation"
      icon={MailOpen}
      width="narrow"
      description="Accept to work on a business's payments with your CPXTB Pay account."
    >
      <InvitationAccept key={token} token={token} />
    </PageFrame>
  );
}
