import { forgotPasswordRequest } from "@common/auth.ts";
import { useMutation } from "@tanstack/react-query";
import { MailCheck, Send } from "lucide-react";
import * as React from "react";
import { Link } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { accountErrorText, accountFieldErrors } from "@/features/auth/account-error-text";
import { useAccountPage } from "@/features/auth/account-page";
import { requestPasswordReset } from "@/features/auth/api/forgot-password";
import { toast } from "@/hooks/use-toast";
import { useT } from "@/i18n/i18n";
import { type FieldErrors, validate } from "@/lib/form-errors";

/** /forgot-password, in the reader's language (issue 37). */
export default function ForgotPasswordPage() {
  useAccountPage();
  const t = useT();
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: requestPasswordReset,
    onError: (error) =>
      toast({
        title: t("account.forgot.notSent"),
        description: accountErrorText(error),
        variant: "destructive",
      }),
  });

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(forgotPasswordRequest, { email: new FormData(event.currentTarget).get("email") });
    setErrors(accountFieldErrors(result.errors ?? {}));
    if (result.data) mutation.mutate(result.data.email);
  };

  return (
    <PageFrame
      title={t("account.forgot.title")}
      documentTitle={t("account.forgot.documentTitle")}
      icon={MailCheck}
      width="narrow"
      description={t("account.forgot.description")}
    >
      {mutation.isSuccess ? (
        <Card role="status">
          <CardHeader>
            <CardTitle>{t("account.forgot.checkInbox")}</CardTitle>
            <CardDescription className="text-base">{t("account.forgot.sent")}</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-wrap gap-3">
            <Button variant="outline" onClick={() => mutation.reset()}>
              {t("account.forgot.another")}
            </Button>
            <Button asChild variant="ghost">
              <Link href="/auth">{t("account.forgot.back")}</Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Card>
          <CardContent>
            <form
              onSubmit={submit}
              noValidate
              className="flex flex-col gap-5"
              aria-label={t("account.forgot.formLabel")}
            >
              <Field
                label={t("account.forgot.email")}
                name="email"
                type="email"
                autoComplete="email"
                error={errors.email}
                required
              />
              <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                <Button type="submit" disabled={mutation.isPending}>
                  <Send aria-hidden="true" />
                  {mutation.isPending ? t("account.forgot.pending") : t("account.forgot.submit")}
                </Button>
                <Link href="/auth" className="text-primary text-sm underline-offset-4 hover:underline">
                  {t("account.forgot.back")}
                </Link>
              </div>
            </form>
          </CardContent>
        </Card>
      )}
    </PageFrame>
  );
}
