import type { MemberRole } from "@common/merchant.ts";
import { Lock } from "lucide-react";
import { roleNoticeSentence } from "../role-access";

const ROLE_NAME: Record<MemberRole, string> = { owner: "the owner", admin: "an admin", staff: "staff" };

/**
 * What every screen a member's role cannot use shows, the same way everywhere (decision 021: the server refuses
 * anyway; this says so before anyone fills a form in vain): who can, what the member is, whom to ask. Its words
 * are English unless a translated page passes its own (`title`, `detail`).
 */
export function RoleNotice({
  roles,
  what,
  role,
  business,
  title,
  detail,
}: {
  /** The roles that may use the screen. */
  roles: readonly MemberRole[];
  /** What they may do, after "can": "see the audit log", "create API keys". */
  what: string;
  role: MemberRole;
  business: string;
  /** The whole first sentence in the page's language, in place of the English one built from `roles` and `what`. */
  title?: string;
  /** The second sentence (what the member is, whom to ask) in the page's language. */
  detail?: string;
}) {
  return (
    <div
      role="status"
      data-testid="role-notice"
      className="flex items-start gap-3 rounded-xl border border-border bg-card p-4 text-card-foreground sm:p-6"
    >
      <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <Lock aria-hidden="true" className="size-4" />
      </span>
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-semibold">{title ?? roleNoticeSentence(roles, what)}</p>
        <p className="text-muted-foreground text-sm">
          {detail ?? `You are ${ROLE_NAME[role]} of ${business}. Ask its owner or an admin if you need this.`}
        </p>
      </div>
    </div>
  );
}
