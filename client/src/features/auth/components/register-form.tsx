import { PASSWORD_MIN_LENGTH, registerRequest } from "@common/auth.ts";
import { UserPlus } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { errorText } from "@/lib/error-text";
import { type FieldErrors, validate } from "@/lib/form-errors";
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
    const nextErrors = { ...result.errors };
    if (form.get("password") !== form.get("confirm")) nextErrors.confirm = "The passwords do not match.";
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
    <form onSubmit={submit} noValidate className="flex flex-col gap-5" aria-label="Register">
      <Field
        label="Username"
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        hint="3–32 letters, digits, '_', '.' or '-'."
        error={errors.username}
        required
      />
      <Field
        label="Email (optional)"
        name="email"
        type="email"
        autoComplete="email"
        defaultValue={defaultEmail}
        hint="For payment notifications and password resets. We send a link to confirm it."
        error={errors.email}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters. A few unrelated words make a strong one.`}
        error={errors.password}
        required
      />
      <Field
        label="Confirm password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        error={errors.confirm}
        required
      />
      <FormError message={registerMutation.isError ? errorText(registerMutation.error) : null} />
      <Button type="submit" disabled={registerMutation.isPending} className="sm:self-start sm:min-w-44">
        <UserPlus aria-hidden="true" />
        {registerMutation.isPending ? "Creating account..." : "Create account"}
      </Button>
    </form>
  );
}
