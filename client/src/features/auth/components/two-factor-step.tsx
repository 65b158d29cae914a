import { secondFactorRequest } from "@common/two-factor";
import { Fingerprint, KeyRound, ShieldCheck } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useT } from "@/i18n/i18n";
import { type FieldErrors, validate } from "@/lib/form-errors";
import { accountFieldErrors } from "../account-error-text";
import { useAuth } from "../auth-provider";
import { whenSignedIn } from "../when-signed-in";

/**
 * The second step of a sign-in with two-factor sign-in on: a code from the authenticator app, a recovery code,
 * or a passkey. Shown in place of the sign-in form until the session starts (or the user starts over).
 */
export function TwoFactorStep({ onSuccess }: { onSuccess: () => void }) {
  const { pendingSignIn, setPendingSignIn, secondFactorMutation, passkeyMutation } = useAuth();
  const t = useT();
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const [useRecovery, setUseRecovery] = React.useState(false);
  const methods = pendingSignIn?.methods ?? [];
  const hasTotp = methods.includes("totp");
  const showCode = hasTotp || useRecovery;

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(secondFactorRequest, { code: new FormData(event.currentTarget).get("code") });
    setErrors(accountFieldErrors(result.errors ?? {}));
    if (result.data) whenSignedIn(secondFactorMutation.mutateAsync(result.data.code), onSuccess);
  };

  return (
    <section aria-labelledby="two-factor-heading" className="flex flex-col gap-5">
      <div className="flex items-start gap-3">
        <ShieldCheck aria-hidden="true" className="mt-1 size-6 shrink-0 text-primary" />
        <div className="flex flex-col gap-1">
          <h2 id="two-factor-heading" className="font-semibold text-xl">
            {t("account.twoFactorStep.title")}
          </h2>
          <p className="text-muted-foreground text-sm">
            {showCode
              ? useRecovery
                ? t("account.twoFactorStep.recoveryHint")
                : t("account.twoFactorStep.codeHint")
              : t("account.twoFactorStep.passkeyHint")}
          </p>
        </div>
      </div>
      {showCode ? (
        <form
          onSubmit={submit}
          noValidate
          className="flex flex-col gap-4"
          aria-label={t("account.twoFactorStep.formLabel")}
        >
          <Field
            label={useRecovery ? t("account.twoFactorStep.recoveryCode") : t("account.twoFactorStep.code")}
            name="code"
            autoComplete="one-time-code"
            inputMode={useRecovery ? "text" : "numeric"}
            autoCapitalize="none"
            spellCheck={false}
            // The field appears in answer to the user's own sign-in: moving focus to it is expected.
            autoFocus
            maxLength={32}
            error={errors.code}
            inputClassName="font-mono tabular-nums"
            required
          />
          <Button type="submit" disabled={secondFactorMutation.isPending}>
            <KeyRound aria-hidden="true" />
            {secondFactorMutation.isPending
              ? t("account.twoFactorStep.checking")
              : t("account.twoFactorStep.submit")}
          </Button>
        </form>
      ) : null}
      {methods.includes("passkey") ? (
        <Button
          type="button"
          variant={showCode ? "outline" : "default"}
          disabled={passkeyMutation.isPending}
          onClick={() => whenSignedIn(passkeyMutation.mutateAsync(), onSuccess)}
        >
          <Fingerprint aria-hidden="true" />
          {passkeyMutation.isPending ? t("account.passkey.waiting") : t("account.twoFactorStep.usePasskey")}
        </Button>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        {methods.includes("recovery") ? (
          <Button
            type="button"
            variant="link"
            className="h-auto px-0"
            onClick={() => setUseRecovery((v) => !v)}
          >
            {useRecovery
              ? hasTotp
                ? t("account.twoFactorStep.useApp")
                : t("account.twoFactorStep.usePasskey")
              : t("account.twoFactorStep.useRecovery")}
          </Button>
        ) : (
          <span />
        )}
        <Button type="button" variant="ghost" onClick={() => setPendingSignIn(null)}>
          {t("account.twoFactorStep.startOver")}
        </Button>
      </div>
    </section>
  );
}
