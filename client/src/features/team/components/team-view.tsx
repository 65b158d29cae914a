import type { MemberRole } from "@common/merchant";
import { type InvitableRole, inviteMemberRequest, type Member, type Team } from "@common/team";
import { Crown, MailPlus, ShieldCheck, ShieldOff, Trash2, UserRound, Users } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { describeError } from "@/features/auth/error-message";
import { toast } from "@/hooks/use-toast";
import {
  useChangeRole,
  useInviteMember,
  useRemoveMember,
  useRevokeInvitation,
  useTeam,
  useTransferOwnership,
} from "../api/team";

const ROLE_LABEL: Record<MemberRole, string> = { owner: "Owner", admin: "Admin", staff: "Staff" };
const ROLE_HELP: Record<InvitableRole, string> = {
  admin: "Admin: everything except transferring ownership.",
  staff: "Staff: create payments and see history; no settings, refunds, keys or webhooks.",
};

const failed = (title: string) => (error: unknown) =>
  toast({ variant: "destructive", title, description: describeError(error) });

const selectClass =
  "min-h-11 rounded-md border border-input bg-background px-3 text-foreground text-sm focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60";

function RoleBadge({ role }: { role: MemberRole }) {
  const Icon = role === "owner" ? Crown : role === "admin" ? ShieldCheck : UserRound;
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-border px-2 py-0.5 font-medium text-xs">
      <Icon aria-hidden="true" className="size-3.5" />
      {ROLE_LABEL[role]}
    </span>
  );
}

function MemberRow({ member, team, selfId }: { member: Member; team: Team; selfId: string | undefined }) {
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const transfer = useTransferOwnership();
  const [confirm, setConfirm] = React.useState<"remove" | "transfer" | null>(null);
  const isSelf = member.userId === selfId;
  const editable = member.role !== "owner" && !isSelf;
  return (
    <li className="flex flex-col gap-3 border-border border-b py-4 last:border-b-0" data-testid="team-member">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-col">
          <span className="flex flex-wrap items-center gap-2 font-semibold">
            <span className="truncate">{member.username}</span>
            {isSelf ? <span className="font-normal text-muted-foreground text-sm">(you)</span> : null}
            <RoleBadge role={member.role} />
          </span>
          <span className="flex flex-wrap items-center gap-2 text-muted-foreground text-sm [overflow-wrap:anywhere]">
            {member.email ?? "no email on file"}
            <span className="inline-flex items-center gap-1">
              {member.twoFactor ? (
                <>
                  <ShieldCheck aria-hidden="true" className="size-3.5 text-success" /> Two-factor on
                </>
              ) : (
                <>
                  <ShieldOff aria-hidden="true" className="size-3.5" /> No second factor
                </>
              )}
            </span>
          </span>
        </div>
        {editable ? (
          <div className="flex flex-wrap items-center gap-2">
            <Label htmlFor={`role-${member.userId}`} className="sr-only">
              Role of {member.username}
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
                    onSuccess: () => toast({ title: `${member.username} is now ${event.target.value}` }),
                    onError: failed("The role could not be changed"),
                  },
                )
              }
            >
              <option value="admin">Admin</option>
              <option value="staff">Staff</option>
            </select>
            <Button
              variant="outline"
              onClick={() => setConfirm("remove")}
              aria-label={`Remove ${member.username}`}
            >
              <Trash2 aria-hidden="true" /> Remove
            </Button>
            {team.role === "owner" ? (
              <Button variant="ghost" onClick={() => setConfirm("transfer")}>
                <Crown aria-hidden="true" /> Make owner
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
              ? `Remove ${member.username}? They lose access to ${team.businessName} at once.`
              : `Transfer ownership of ${team.businessName} to ${member.username}? You stay on as admin and cannot undo this yourself.`}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="destructive"
              disabled={remove.isPending || transfer.isPending}
              onClick={() =>
                confirm === "remove"
                  ? remove.mutate(member.userId, {
                      onSuccess: () => toast({ title: `${member.username} was removed` }),
                      onError: failed("The member could not be removed"),
                    })
                  : transfer.mutate(member.userId, {
                      onSuccess: () => toast({ title: `${member.username} now owns ${team.businessName}` }),
                      onError: failed("Ownership could not be transferred"),
                    })
              }
            >
              {confirm === "remove"
                ? `Yes, remove ${member.username}`
                : `Yes, transfer to ${member.username}`}
            </Button>
            <Button variant="outline" onClick={() => setConfirm(null)}>
              Cancel
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
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = inviteMemberRequest.safeParse({ email, role });
    if (!parsed.success) {
      setError("Enter a valid email address.");
      return;
    }
    setError(undefined);
    invite.mutate(parsed.data, {
      onSuccess: () => {
        toast({ title: "Invitation sent", description: `${parsed.data.email} has 7 days to accept it.` });
        setEmail("");
      },
      onError: failed("The invitation could not be sent"),
    });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Invite a member">
      <Field
        label="Email address"
        type="email"
        autoComplete="off"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={error}
        hint="We email a link that works once, for 7 days. They sign in or create an account to accept."
      />
      <div className="flex flex-col gap-2">
        <Label htmlFor="invite-role">Role</Label>
        <select
          id="invite-role"
          className={selectClass}
          value={role}
          onChange={(event) => setRole(event.target.value as InvitableRole)}
          aria-describedby="invite-role-help"
        >
          <option value="staff">Staff</option>
          <option value="admin">Admin</option>
        </select>
        <p id="invite-role-help" className="text-muted-foreground text-sm">
          {ROLE_HELP[role]}
        </p>
      </div>
      <Button type="submit" disabled={invite.isPending} className="self-start">
        {invite.isPending ? <Spinner size="sm" label="Sending" /> : <MailPlus aria-hidden="true" />}
        Send invitation
      </Button>
    </form>
  );
}

function PendingInvitations({ team }: { team: Team }) {
  const revoke = useRevokeInvitation();
  if (team.invitations.length === 0) {
    return <p className="text-muted-foreground text-sm">No pending invitations. Invite someone above.</p>;
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
            <span className="truncate font-medium">{invitation.email}</span>
            <span className="text-muted-foreground text-sm">
              {ROLE_LABEL[invitation.role]} · expires{" "}
              <time dateTime={invitation.expiresAt} title={new Date(invitation.expiresAt).toLocaleString()}>
                {new Date(invitation.expiresAt).toLocaleDateString()}
              </time>
              {invitation.invitedBy ? ` · invited by ${invitation.invitedBy}` : ""}
            </span>
          </span>
          <Button
            variant="outline"
            disabled={revoke.isPending}
            aria-label={`Revoke the invitation of ${invitation.email}`}
            onClick={() =>
              revoke.mutate(invitation.id, {
                onSuccess: () => toast({ title: "Invitation revoked" }),
                onError: failed("The invitation could not be revoked"),
              })
            }
          >
            Revoke
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
  if (team.isPending) {
    return (
      <div aria-busy="true" className="h-64 animate-pulse rounded-xl bg-muted motion-reduce:animate-none" />
    );
  }
  if (team.isError) {
    return (
      <div role="alert" className="rounded-xl border border-border p-4">
        <p className="font-semibold">The team could not be loaded.</p>
        <p className="text-muted-foreground text-sm">{describeError(team.error)}</p>
      </div>
    );
  }
  const data = team.data;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Users aria-hidden="true" className="size-5" /> Members of {data.businessName}
          </CardTitle>
          <CardDescription>You are {ROLE_LABEL[data.role].toLowerCase()} of this business.</CardDescription>
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
            <CardTitle>Invite a member</CardTitle>
          </CardHeader>
          <CardContent>
            <InviteForm />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Pending invitations</CardTitle>
          </CardHeader>
          <CardContent>
            <PendingInvitations team={data} />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
