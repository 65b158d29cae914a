import { CircleAlert, LogIn, UserPlus, Users } from "lucide-react";
import { Link, useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { toast } from "@/hooks/use-toast";
import { isApiError } from "@/lib/api-client";
import { useAcceptInvitation, useInvitation } from "../api/invitation";

const ROLE_TEXT = { admin: "an admin", staff: "staff" } as const;

function messageOf(error: unknown): string {
  if (isApiError(error)) {
    const body = error.body as { error?: { message?: unknown } } | undefined;
    if (typeof body?.error?.message === "string") return body.error.message;
  }
  return "This invitation could not be loaded. Try again in a moment.";
}

/** /invitations/:token: what the invitation offers, and accepting it with an existing or a new account. */
export function InvitationAccept({ token }: { token: string }) {
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation(token);
  const { user, isLoading } = useAuth();
  const [, navigate] = useLocation();
  const here = `/invitations/${token}`;

  if (invitation.isPending || isLoading) return <Spinner size="lg" label="Reading the invitation" />;
  if (invitation.isError) {
    return (
      <div
        role="alert"
        className="flex flex-col items-start gap-3 rounded-xl border border-border p-4"
        data-testid="invitation-error"
      >
        <p className="flex items-center gap-2 font-semibold">
          <CircleAlert aria-hidden="true" className="size-4 text-destructive-emphasis" /> This invitation
          cannot be used
        </p>
        <p className="text-muted-foreground text-sm">{messageOf(invitation.error)}</p>
      </div>
    );
  }
  const { businessName, role, email, expiresAt } = invitation.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Users aria-hidden="true" className="size-5" /> Join {businessName}
        </CardTitle>
        <CardDescription className="text-base [overflow-wrap:anywhere]">
          You are invited as {ROLE_TEXT[role]}. The invitation was sent to {email} and works once, until{" "}
          {new Date(expiresAt).toLocaleDateString()}.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {accept.isError ? (
          <p role="alert" className="font-medium text-destructive-emphasis text-sm">
            {messageOf(accept.error)}
          </p>
        ) : null}
        {user ? (
          <Button
            className="self-start"
            disabled={accept.isPending}
            onClick={() =>
              accept.mutate(undefined, {
                onSuccess: (accepted) => {
                  toast({ title: `Welcome to ${accepted.businessName}` });
                  navigate("/merchant");
                },
              })
            }
          >
            {accept.isPending ? <Spinner size="sm" label="Joining" /> : <UserPlus aria-hidden="true" />}
            Accept as {user.username}
          </Button>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button asChild>
              <Link href={`/auth?next=${encodeURIComponent(here)}`}>
                <LogIn aria-hidden="true" /> Sign in to accept
              </Link>
            </Button>
            <Button variant="outline" asChild>
              <Link
                href={`/auth?tab=register&email=${encodeURIComponent(email)}&next=${encodeURIComponent(here)}`}
              >
                <UserPlus aria-hidden="true" /> Create an account
              </Link>
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
