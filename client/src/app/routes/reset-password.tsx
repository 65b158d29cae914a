import { PASSWORD_MIN_LENGTH, resetPasswordRequest } from "@common/auth.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import * as React from "react";
import { Link, useLocation, useSearch } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { USER_QUERY_KEY } from "@/features/auth/api/get-user";
import { resetPassword, resetTokenCheckQueryOptions } from "@/features/auth/api/reset-password";
import { describeError } from "@/features/auth/error-message";
import { toast } from "@/hooks/use-toast";
import { type FieldErrors, validate } from "@/lib/form-errors";

const LINK_PROBLEMS = {
  unknown: "This link is not valid. It may have been copied incompletely.",
  used: "This link has already been used. Each link works once.",
  expired: "This link has expired. Links work for one hour.",
} as const;

export default function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const check = useQuery(resetTokenCheckQueryOptions(token));
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: resetPassword,
    onSuccess: (result) => {
      // With two-factor sign-in the new password is the first step only: the sign-in page asks for the code.
      if ("twoFactorRequired" in result) {
        toast({
          title: "Password changed",
          description: "Enter the code from your authenticator app to sign in.",
        });
        navigate("/auth?twoFactor=required");
        return;
      }
      queryClient.setQueryData(USER_QUERY_KEY, result);
      toast({ title: "Password changed", description: "You are signed in; other sessions were signed out." });
      // As after sign-in (spec section 2): the dashboard after 0.5 s, once the new user has reached every screen.
      setTimeout(() => navigate("/merchant"), 500);
    },
    onError: (error) =>
      toast({ title: "Password not changed", description: describeError(error), variant: "destructive" }),
  });

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = validate(resetPasswordRequest, { token, password: form.get("password") });
    const nextErrors = { ...result.errors };
    if (form.get("password") !== form.get("confirm")) nextErrors.confirm = "The passwords do not match.";
    setErrors(nextErrors);
    if (result.data && !nextErrors.confirm) mutation.mutate(result.data);
  };

  const problem = !token
    ? "unknown"
    : check.data && !check.data.valid
      ? (check.data.reason ?? "unknown")
      : null;

  return (
    <PageFrame
      title="Choose a new password"
      documentTitle="Reset password"
      icon={KeyRound}
      width="narrow"
      description="Setting a new password signs you out on every other device."
    >
      {token && check.isLoading ? (
        <Spinner size="lg" label="Checking your link" />
      ) : problem || check.isError ? (
        <Card role="alert">
          <CardHeader>
            <CardTitle>This reset link cannot be used</CardTitle>
            <CardDescription className="text-base">
              {problem ? LINK_PROBLEMS[problem] : describeError(check.error)} Ask for a new link: it takes a
              minute.
            </CardDescription>
          </CardHeader>
          <CardFooter>
            <Button asChild>
              <Link href="/forgot-password">Request a new link</Link>
            </Button>
          </CardFooter>
        </Card>
      ) : (
        <Card>
          <CardContent>
            <form
              onSubmit={submit}
              noValidate
              className="flex flex-col gap-5"
              aria-label="Choose a new password"
            >
              <Field
                label="New password"
                name="password"
                type="password"
                autoComplete="new-password"
                hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
                error={errors.password}
                required
              />
              <Field
                label="Confirm new password"
                name="confirm"
                type="password"
                autoComplete="new-password"
                error={errors.confirm}
                required
              />
              <Button type="submit" disabled={mutation.isPending} className="sm:self-start">
                {mutation.isPending ? "Saving..." : "Set new password"}
              </Button>
            </form>
          </CardContent>
        </Card>
      )}
    </PageFrame>
  );
}
