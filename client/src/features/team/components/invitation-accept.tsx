import { CircleAlert, LogIn, UserPlus, Users } from "lucide-react";
import { Link, useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import { formatDate } from "@/features/payments/format";
import { toast } from "@/hooks/use-toast";
import { Rich, useLocale, useT } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-client";
import { useAcceptInvitation, useInvitation } from "../api/invitation";
import { teamErrorText } from "../team-error-text";

/** The whole sentence per role: the role's words change with the sentence around them in most languages. */
const OFFER = { admin: "team.invitation.offerAdmin", staff: "team.invitation.offerStaff" } as const;

/** Why the invitation cannot be read or accepted: the server's reason in the reader's words, else a generic one. */
function messageOf(error: unknown, t: ReturnType<typeof useT>): string {
  return isApiError(error) ? teamErrorText(error) : t("team.invitation.loadFailed");
}

/** /invitations/:token: what the invitation offers, and accepting it with an existing or a new account. */
export function InvitationAccept({ token }: { token: string }) {
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation(token);
  const { user, isLoading } = useAuth();
  const [, navigate] = useLocation();
  const t = useT();
  const locale = useLocale();
  const here = `/invitations/${token}`;

  if (invitation.isPending || isLoading) return <Spinner size="lg" label={t("team.invitation.reading")} />;
  if (invitation.isError) {
    return (
      <div
        role="alert"
        className="flex flex-col items-start gap-3 rounded-xl border border-border p-4"
        data-testid="invitation-error"
      >
        <p className="flex items-center gap-2 font-semibold">
          <CircleAlert aria-hidden="true" className="size-4 text-destructive-emphasis" />{" "}
          {t("team.invitation.unusable")}
        </p>
        <p className="text-muted-foreground text-sm">{messageOf(invitation.error, t)}</p>
      </div>
    );
  }
  const { businessName, role, email, expiresAt } = invitation.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Users aria-hidden="true" className="size-5" />{" "}
          {t("team.invitation.join", { business: businessName })}
        </CardTitle>
        <CardDescription className="text-base [overflow-wrap:anywhere]">
          <Rich
            id={OFFER[role]}
            values={{
              email: <bdi dir="ltr">{email}</bdi>,
              date: <time dateTime={expiresAt}>{formatDate(expiresAt, locale)}</time>,
            }}
          />
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {accept.isError ? (
          <p role="alert" className="font-medium text-destructive-emphasis text-sm">
            {messageOf(accept.error, t)}
          </p>
        ) : null}
        {user ? (
          <Button
            className="self-start"
            disabled={accept.isPending}
            onClick={() =>
              accept.mutate(undefined, {
                onSuccess: (accepted) => {
                  toast({ title: t("team.invitation.welcome", { business: accepted.businessName }) });
                  navigate("/merchant");
                },
              })
            }
          >
            {accept.isPending ? (
              <Spinner size="sm" label={t("team.invitation.joining")} />
            ) : (
              <UserPlus aria-hidden="true" />
            )}
            {t("team.invitation.acceptAs", { name: user.username })}
          </Button>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button asChild>
              <Link href={`/auth?next=${encodeURIComponent(here)}`}>
                <LogIn aria-hidden="true" /> {t("team.invitation.signInToAccept")}
              </Link>
            </Button>
            <Button variant="outline" asChild>
              <Link
                href={`/auth?tab=register&email=${encodeURIComponent(email)}&next=${encodeURIComponent(here)}`}
              >
                <UserPlus aria-hidden="true" /> {t("team.invitation.createAccount")}
              </Link>
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
