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
import { accountErrorText, accountFieldErrors } from "@/features/auth/account-error-text";
import { useAccountPage } from "@/features/auth/account-page";
import { USER_QUERY_KEY } from "@/features/auth/api/get-user";
import {
  isResetTokenShaped,
  resetPassword,
  resetTokenCheckQueryOptions,
} from "@/features/auth/api/reset-password";
import { toast } from "@/hooks/use-toast";
import { useT } from "@/i18n/i18n";
import { type FieldErrors, validate } from "@/lib/form-errors";

const LINK_PROBLEMS = {
  unknown: "account.reset.unknown",
  used: "account.reset.used",
  expired: "account.reset.expired",
} as const;

/** /reset-password, in the reader's language (issue 37): the link checked first, then the new password. */
export default function ResetPasswordPage() {
  useAccountPage();
  const t = useT();
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
          title: t("account.reset.changed"),
          description: t("account.reset.enterCode"),
        });
        navigate("/auth?twoFactor=required");
        return;
      }
      queryClient.setQueryData(USER_QUERY_KEY, result);
      toast({ title: t("account.reset.changed"), description: t("account.reset.signedIn") });
      // As after sign-in (spec section 2): the dashboard after 0.5 s, once the new user has reached every screen.
      setTimeout(() => navigate("/merchant"), 500);
    },
    onError: (error) =>
      toast({
        title: t("account.reset.notChanged"),
        description: accountErrorText(error),
        variant: "destructive",
      }),
  });

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = validate(resetPasswordRequest, { token, password: form.get("password") });
    const nextErrors = accountFieldErrors(result.errors ?? {});
    if (form.get("password") !== form.get("confirm")) nextErrors.confirm = t("account.password.mismatch");
    setErrors(nextErrors);
    if (result.data && !nextErrors.confirm) mutation.mutate(result.data);
  };

  const problem = !isResetTokenShaped(token)
    ? "unknown"
    : check.data && !check.data.valid
      ? (check.data.reason ?? "unknown")
      : null;

  return (
    <PageFrame
      title={t("account.reset.title")}
      documentTitle={t("account.reset.documentTitle")}
      icon={KeyRound}
      width="narrow"
      description={t("account.reset.description")}
    >
      {isResetTokenShaped(token) && check.isLoading ? (
        <Spinner size="lg" label={t("account.reset.checking")} />
      ) : problem || check.isError ? (
        <Card role="alert">
          <CardHeader>
            <CardTitle>{t("account.reset.cannotUse")}</CardTitle>
            <CardDescription className="text-base">
              {problem ? t(LINK_PROBLEMS[problem]) : accountErrorText(check.error)}{" "}
              {t("account.reset.askNew")}
            </CardDescription>
          </CardHeader>
          <CardFooter>
            <Button asChild>
              <Link href="/forgot-password">{t("account.reset.requestNew")}</Link>
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
              aria-label={t("account.reset.formLabel")}
            >
              <Field
                label={t("account.reset.password")}
                name="password"
                type="password"
                autoComplete="new-password"
                hint={t("account.reset.passwordHint", { min: PASSWORD_MIN_LENGTH })}
                error={errors.password}
                required
              />
              <Field
                label={t("account.reset.confirm")}
                name="confirm"
                type="password"
                autoComplete="new-password"
                error={errors.confirm}
                required
              />
              <Button type="submit" disabled={mutation.isPending} className="sm:self-start">
                {mutation.isPending ? t("account.reset.pending") : t("account.reset.submit")}
              </Button>
            </form>
          </CardContent>
        </Card>
      )}
    </PageFrame>
  );
}
