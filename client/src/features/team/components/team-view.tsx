import type { MemberRole } from "@common/merchant";
import {
  INVITATION_TTL_DAYS,
  type InvitableRole,
  inviteMemberRequest,
  type Member,
  type Team,
} from "@common/team";
import { Crown, MailPlus, ShieldCheck, ShieldOff, Trash2, UserRound, Users } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { formatDate, formatDateTime } from "@/features/payments/format";
import { toast } from "@/hooks/use-toast";
import { Rich, t, useLocale, useT } from "@/i18n/i18n";
import {
  useChangeRole,
  useInviteMember,
  useRemoveMember,
  useRevokeInvitation,
  useTeam,
  useTransferOwnership,
} from "../api/team";
import { teamErrorText } from "../team-error-text";

/** The roles' names (docs/i18n glossaries), as a badge and in the role menus. */
const ROLE_LABEL = {
  owner: "team.role.owner",
  admin: "team.role.admin",
  staff: "team.role.staff",
} as const satisfies Record<MemberRole, string>;
const ROLE_HELP = {
  admin: "team.roleHelp.admin",
  staff: "team.roleHelp.staff",
} as const satisfies Record<InvitableRole, string>;

const failed = (title: string) => (error: unknown) =>
  toast({ variant: "destructive", title: t(title), description: teamErrorText(error) });

const selectClass =
  "min-h-11 rounded-md border border-input bg-background px-3 text-foreground text-sm focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60";

function RoleBadge({ role }: { role: MemberRole }) {
  const t = useT();
  const Icon = role === "owner" ? Crown : role === "admin" ? ShieldCheck : UserRound;
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-border px-2 py-0.5 font-medium text-xs">
      <Icon aria-hidden="true" className="size-3.5" />
      {t(ROLE_LABEL[role])}
    </span>
  );
}

function MemberRow({ member, team, selfId }: { member: Member; team: Team; selfId: string | undefined }) {
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const transfer = useTransferOwnership();
  const [confirm, setConfirm] = React.useState<"remove" | "transfer" | null>(null);
  const t = useT();
  const name = member.username;
  const business = team.businessName;
  const isSelf = member.userId === selfId;
  const editable = member.role !== "owner" && !isSelf;
  return (
    <li className="flex flex-col gap-3 border-border border-b py-4 last:border-b-0" data-testid="team-member">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-col">
          <span className="flex flex-wrap items-center gap-2 font-semibold">
            <span className="truncate">{member.username}</span>
            {isSelf ? (
              <span className="font-normal text-muted-foreground text-sm">{t("team.member.you")}</span>
            ) : null}
            <RoleBadge role={member.role} />
          </span>
          <span className="flex flex-wrap items-center gap-2 text-muted-foreground text-sm [overflow-wrap:anywhere]">
            {member.email ? <bdi dir="ltr">{member.email}</bdi> : t("team.member.noEmail")}
            <span className="inline-flex items-center gap-1">
              {member.twoFactor ? (
                <>
                  <ShieldCheck aria-hidden="true" className="size-3.5 text-success" />{" "}
                  {t("team.member.twoFactorOn")}
                </>
              ) : (
                <>
                  <ShieldOff aria-hidden="true" className="size-3.5" /> {t("team.member.noSecondFactor")}
                </>
              )}
            </span>
          </span>
        </div>
        {editable ? (
          <div className="flex flex-wrap items-center gap-2">
            <Label htmlFor={`role-${member.userId}`} className="sr-only">
              {t("team.member.roleOf", { name })}
            </Label>
            <select
              id={`role-${member.userId}`}
              className={selectClass}
              value={member.role}
              disabled={changeRole.isPending}
              onChange={(event) =>
                changeRole.mutate(
                  { userId: member.userId, role: event.target.value as InvitableRole },
                  {
                    onSuccess: (_, { role }) =>
                      toast({ title: t("team.member.roleChanged", { name, role }) }),
                    onError: failed("team.member.roleChangeFailed"),
                  },
                )
              }
            >
              <option value="admin">{t(ROLE_LABEL.admin)}</option>
              <option value="staff">{t(ROLE_LABEL.staff)}</option>
            </select>
            <Button
              variant="outline"
              onClick={() => setConfirm("remove")}
              aria-label={t("team.member.removeLabel", { name })}
            >
              <Trash2 aria-hidden="true" /> {t("team.member.remove")}
            </Button>
            {team.role === "owner" ? (
              <Button variant="ghost" onClick={() => setConfirm("transfer")}>
                <Crown aria-hidden="true" /> {t("team.member.makeOwner")}
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      {confirm ? (
        <div
          role="alert"
          className="flex flex-col gap-3 rounded-lg border border-warning/60 bg-warning/10 p-3 text-sm"
        >
          <p>
            {confirm === "remove"
              ? t("team.member.confirmRemove", { name, business })
              : t("team.member.confirmTransfer", { name, business })}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="destructive"
              disabled={remove.isPending || transfer.isPending}
              onClick={() =>
                confirm === "remove"
                  ? remove.mutate(member.userId, {
                      onSuccess: () => toast({ title: t("team.member.removed", { name }) }),
                      onError: failed("team.member.removeFailed"),
                    })
                  : transfer.mutate(member.userId, {
                      onSuccess: () => toast({ title: t("team.member.transferred", { name, business }) }),
                      onError: failed("team.member.transferFailed"),
                    })
              }
            >
              {confirm === "remove"
                ? t("team.member.yesRemove", { name })
                : t("team.member.yesTransfer", { name })}
            </Button>
            <Button variant="outline" onClick={() => setConfirm(null)}>
              {t("team.member.cancel")}
            </Button>
          </div>
        </div>
      ) : null}
    </li>
  );
}

function InviteForm() {
  const invite = useInviteMember();
  const [email, setEmail] = React.useState("");
  const [role, setRole] = React.useState<InvitableRole>("staff");
  const [error, setError] = React.useState<string | undefined>();
  const t = useT();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = inviteMemberRequest.safeParse({ email, role });
    if (!parsed.success) {
      setError(t("team.invite.emailInvalid"));
      return;
    }
    setError(undefined);
    invite.mutate(parsed.data, {
      onSuccess: () => {
        toast({
          title: t("team.invite.sent"),
          description: t("team.invite.sentDetail", { email: parsed.data.email, days: INVITATION_TTL_DAYS }),
        });
        setEmail("");
      },
      onError: failed("team.invite.failed"),
    });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label={t("team.invite.title")}>
      <Field
        label={t("team.invite.email")}
        type="email"
        autoComplete="off"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={error}
        hint={t("team.invite.hint", { days: INVITATION_TTL_DAYS })}
      />
      <div className="flex flex-col gap-2">
        <Label htmlFor="invite-role">{t("team.invite.role")}</Label>
        <select
          id="invite-role"
          className={selectClass}
          value={role}
          onChange={(event) => setRole(event.target.value as InvitableRole)}
          aria-describedby="invite-role-help"
        >
          <option value="staff">{t(ROLE_LABEL.staff)}</option>
          <option value="admin">{t(ROLE_LABEL.admin)}</option>
        </select>
        <p id="invite-role-help" className="text-muted-foreground text-sm">
          {t(ROLE_HELP[role])}
        </p>
      </div>
      <Button type="submit" disabled={invite.isPending} className="self-start">
        {invite.isPending ? (
          <Spinner size="sm" label={t("team.invite.sending")} />
        ) : (
          <MailPlus aria-hidden="true" />
        )}
        {t("team.invite.send")}
      </Button>
    </form>
  );
}

function PendingInvitations({ team }: { team: Team }) {
  const revoke = useRevokeInvitation();
  const t = useT();
  const locale = useLocale();
  if (team.invitations.length === 0) {
    return <p className="text-muted-foreground text-sm">{t("team.invitations.empty")}</p>;
  }
  return (
    <ul className="flex flex-col">
      {team.invitations.map((invitation) => (
        <li
          key={invitation.id}
          className="flex flex-wrap items-center justify-between gap-2 border-border border-b py-3 last:border-b-0"
          data-testid="team-invitation"
        >
          <span className="flex min-w-0 flex-col">
            <span className="truncate font-medium">
              <bdi dir="ltr">{invitation.email}</bdi>
            </span>
            <span className="text-muted-foreground text-sm">
              {t(ROLE_LABEL[invitation.role])} ·{" "}
              <Rich
                id="team.invitations.expires"
                values={{
                  date: (
                    <time
                      dateTime={invitation.expiresAt}
                      title={formatDateTime(invitation.expiresAt, locale)}
                    >
                      {formatDate(invitation.expiresAt, locale)}
                    </time>
                  ),
                }}
              />
              {invitation.invitedBy
                ? ` · ${t("team.invitations.invitedBy", { name: invitation.invitedBy })}`
                : ""}
            </span>
          </span>
          <Button
            variant="outline"
            disabled={revoke.isPending}
            aria-label={t("team.invitations.revokeLabel", { email: invitation.email })}
            onClick={() =>
              revoke.mutate(invitation.id, {
                onSuccess: () => toast({ title: t("team.invitations.revoked") }),
                onError: failed("team.invitations.revokeFailed"),
              })
            }
          >
            {t("team.invitations.revoke")}
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** /team for owners and admins (decision 021): members and roles, invitations, ownership. */
export function TeamView() {
  const team = useTeam();
  const { user } = useAuth();
  const t = useT();
  if (team.isPending) {
    return (
      <div aria-busy="true" className="h-64 animate-pulse rounded-xl bg-muted motion-reduce:animate-none" />
    );
  }
  if (team.isError) {
    return (
      <div role="alert" className="rounded-xl border border-border p-4">
        <p className="font-semibold">{t("team.members.loadFailed")}</p>
        <p className="text-muted-foreground text-sm">{teamErrorText(team.error)}</p>
      </div>
    );
  }
  const data = team.data;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Users aria-hidden="true" className="size-5" />{" "}
            {t("team.members.title", { business: data.businessName })}
          </CardTitle>
          <CardDescription>{t("team.members.yourRole", { role: data.role })}</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="flex flex-col">
            {data.members.map((member) => (
              <MemberRow key={member.userId} member={member} team={data} selfId={user?.id} />
            ))}
          </ul>
        </CardContent>
      </Card>
      <div className="flex flex-col gap-6">
        <Card>
          <CardHeader>
            <CardTitle>{t("team.invite.title")}</CardTitle>
          </CardHeader>
          <CardContent>
            <InviteForm />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("team.invitations.title")}</CardTitle>
          </CardHeader>
          <CardContent>
            <PendingInvitations team={data} />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
