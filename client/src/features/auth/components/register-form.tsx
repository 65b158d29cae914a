import { PASSWORD_MIN_LENGTH, registerRequest } from "@common/auth.ts";
import { UserPlus } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { useT } from "@/i18n/i18n";
import { type FieldErrors, validate } from "@/lib/form-errors";
import { accountErrorText, accountFieldErrors } from "../account-error-text";
import { useAuth } from "../auth-provider";
import { whenSignedIn } from "../when-signed-in";

export function RegisterForm({
  onSuccess,
  defaultEmail,
}: {
  onSuccess: () => void;
  /** Prefilled (an invitation's address); the person may still change it. */
  defaultEmail?: string | undefined;
}) {
  const { registerMutation } = useAuth();
  const t = useT();
  const [errors, setErrors] = React.useState<FieldErrors>({});
  // The shared mutation's last failure belongs to this visit of the form, not the next one.
  const reset = registerMutation.reset;
  React.useEffect(() => reset, [reset]);

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = {
      username: form.get("username"),
      email: form.get("email") ?? "",
      password: form.get("password"),
    };
    const result = validate(registerRequest, values);
    const nextErrors = accountFieldErrors(result.errors ?? {});
    if (form.get("password") !== form.get("confirm")) nextErrors.confirm = t("account.password.mismatch");
    setErrors(nextErrors);
    if (result.data && !nextErrors.confirm) {
      whenSignedIn(
        registerMutation.mutateAsync({
          username: result.data.username,
          password: result.data.password,
          email: result.data.email ?? "",
        }),
        onSuccess,
      );
    }
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-5"
      aria-label={t("account.register.formLabel")}
    >
      <Field
        label={t("account.register.username")}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        hint={t("account.register.usernameHint")}
        error={errors.username}
        required
      />
      <Field
        label={t("account.register.email")}
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={defaultEmail}
        hint={t("account.register.emailHint")}
        error={errors.email}
      />
      <Field
        label={t("account.register.password")}
        name="password"
        type="password"
        autoComplete="new-password"
        hint={t("account.register.passwordHint", { min: PASSWORD_MIN_LENGTH })}
        error={errors.password}
        required
      />
      <Field
        label={t("account.register.confirm")}
        name="confirm"
        type="password"
        autoComplete="new-password"
        error={errors.confirm}
        required
      />
      <FormError
        message={
          registerMutation.isError ? accountErrorText(registerMutation.error, { signingIn: true }) : null
        }
      />
      <Button type="submit" disabled={registerMutation.isPending} className="sm:self-start sm:min-w-44">
        <UserPlus aria-hidden="true" />
        {registerMutation.isPending ? t("account.register.pending") : t("account.register.submit")}
      </Button>
    </form>
  );
}
