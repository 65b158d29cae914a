import { forgotPasswordRequest } from "@common/auth.ts";
import { useMutation } from "@tanstack/react-query";
import { MailCheck, Send } from "lucide-react";
import * as React from "react";
import { Link } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { requestPasswordReset } from "@/features/auth/api/forgot-password";
import { describeError } from "@/features/auth/error-message";
import { toast } from "@/hooks/use-toast";
import { type FieldErrors, validate } from "@/lib/form-errors";

export default function ForgotPasswordPage() {
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: requestPasswordReset,
    onError: (error) =>
      toast({ title: "Could not send the link", description: describeError(error), variant: "destructive" }),
  });

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(forgotPasswordRequest, { email: new FormData(event.currentTarget).get("email") });
    setErrors(result.errors ?? {});
    if (result.data) mutation.mutate(result.data.email);
  };

  return (
    <PageFrame
      title="Forgot your password?"
      documentTitle="Forgot password"
      icon={MailCheck}
      width="narrow"
      description="Enter the confirmed email address of your account and we will send you a link to choose a new password."
    >
      {mutation.isSuccess ? (
        <Card role="status">
          <CardHeader>
            <CardTitle>Check your inbox</CardTitle>
            <CardDescription className="text-base">
              {mutation.data.message ??
                "If an account has that confirmed email address, we sent it a link. The link works for one hour."}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-wrap gap-3">
            <Button variant="outline" onClick={() => mutation.reset()}>
              Use another address
            </Button>
            <Button asChild variant="ghost">
              <Link href="/auth">Back to sign in</Link>
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
              aria-label="Request a reset link"
            >
              <Field
                label="Email"
                name="email"
                type="email"
                autoComplete="email"
                error={errors.email}
                required
              />
              <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                <Button type="submit" disabled={mutation.isPending}>
                  <Send aria-hidden="true" />
                  {mutation.isPending ? "Sending..." : "Send reset link"}
                </Button>
                <Link href="/auth" className="text-primary text-sm underline-offset-4 hover:underline">
                  Back to sign in
                </Link>
              </div>
            </form>
          </CardContent>
        </Card>
      )}
    </PageFrame>
  );
}
