import { loginRequest } from "@common/auth.ts";
import { LogIn } from "lucide-react";
import * as React from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { useT } from "@/i18n/i18n";
import { type FieldErrors, validate } from "@/lib/form-errors";
import { accountErrorText, accountFieldErrors } from "../account-error-text";
import { useAuth } from "../auth-provider";
import { whenSignedIn } from "../when-signed-in";

export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const { loginMutation } = useAuth();
  const t = useT();
  const [errors, setErrors] = React.useState<FieldErrors>({});
  // The shared mutation's last failure belongs to this visit of the form, not the next one.
  const reset = loginMutation.reset;
  React.useEffect(() => reset, [reset]);

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = validate(loginRequest, { username: form.get("username"), password: form.get("password") });
    setErrors(accountFieldErrors(result.errors ?? {}));
    // With two-factor sign-in the answer is the code step (the auth page shows it), not yet a session.
    if (result.data) whenSignedIn(loginMutation.mutateAsync(result.data), onSuccess);
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-5"
      aria-label={t("account.login.formLabel")}
    >
      <Field
        label={t("account.login.username")}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username}
        required
      />
      <Field
        label={t("account.login.password")}
        name="password"
        type="password"
        autoComplete="current-password"
        error={errors.password}
        required
      />
      <FormError
        message={loginMutation.isError ? accountErrorText(loginMutation.error, { signingIn: true }) : null}
      />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Button type="submit" disabled={loginMutation.isPending} className="sm:min-w-36">
          <LogIn aria-hidden="true" />
          {loginMutation.isPending ? t("account.login.pending") : t("account.login.submit")}
        </Button>
        <Link href="/forgot-password" className="text-primary text-sm underline-offset-4 hover:underline">
          {t("account.login.forgot")}
        </Link>
      </div>
    </form>
  );
}
