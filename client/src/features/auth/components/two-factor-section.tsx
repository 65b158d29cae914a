import {
  type AddFactorProof,
  confirmTotpRequest,
  REAUTH_REQUIRED,
  type TotpEnrolment,
} from "@common/two-factor";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, Copy, Fingerprint, KeyRound, ShieldCheck, ShieldOff, Trash2 } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { CopyButton } from "@/features/payments/components/copy-button";
import { useCopyWords } from "@/features/payments/copy-words";
import { formatDate } from "@/features/payments/format";
import { toast } from "@/hooks/use-toast";
import { useLocale, useT } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-client";
import { type FieldErrors, validate } from "@/lib/form-errors";
import { accountErrorText, accountFieldErrors } from "../account-error-text";
import {
  addPasskey,
  confirmTotp,
  disableTotp,
  regenerateRecoveryCodes,
  removePasskey,
  setRequireTwoFactor,
  startTotpSetup,
  TWO_FACTOR_QUERY_KEY,
  type TwoFactorState,
  twoFactorQueryOptions,
} from "../api/two-factor";

/** The QR code of the otpauth:// URI; the encoder loads only when a set-up starts. */
function TotpQrCode({ uri }: { uri: string }) {
  const t = useT();
  const qr = useQuery({
    queryKey: ["totp-qr", uri],
    queryFn: async () => (await import("@common/qr")).qrSvgPath(uri),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  if (!qr.data) return <Spinner label={t("account.qr.drawing")} />;
  return (
    <svg
      role="img"
      aria-label={t("account.qr.label")}
      viewBox={`0 0 ${qr.data.size} ${qr.data.size}`}
      shapeRendering="crispEdges"
      className="size-48 rounded-md border border-border"
    >
      <rect width={qr.data.size} height={qr.data.size} fill="#fff" />
      <path d={qr.data.path} fill="#000" />
    </svg>
  );
}

/** Shown once, right after they are made: the server keeps only their hashes. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useT();
  const [copied, setCopied] = React.useState(false);
  return (
    <section
      aria-labelledby="recovery-codes-heading"
      className="flex flex-col gap-3 rounded-lg border border-warning/60 bg-warning/10 p-4"
    >
      <h3 id="recovery-codes-heading" className="font-semibold">
        {t("account.codes.title")}
      </h3>
      <p className="text-sm">{t("account.codes.text")}</p>
      <ol
        className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-base tabular-nums"
        aria-label={t("account.codes.label")}
        dir="ltr"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            navigator.clipboard
              ?.writeText(codes.join("\n"))
              .then(() => setCopied(true))
              .catch(() =>
                toast({
                  title: t("account.codes.copyFailed"),
                  description: t("account.codes.copyFailedText"),
                }),
              )
          }
        >
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? t("account.codes.copied") : t("account.codes.copy")}
        </Button>
        <Button type="button" onClick={onDone}>
          {t("account.codes.done")}
        </Button>
      </div>
    </section>
  );
}

function TotpEnrolmentPanel({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: TotpEnrolment;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const copyWords = useCopyWords();
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const confirm = useMutation({
    mutationFn: confirmTotp,
    onSuccess: (result) => onConfirmed(result.recoveryCodes),
    onError: (error) => setErrors({ code: accountErrorText(error) }),
  });
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(confirmTotpRequest, { code: new FormData(event.currentTarget).get("code") });
    setErrors(accountFieldErrors(result.errors ?? {}));
    if (result.data) confirm.mutate(result.data.code);
  };
  const grouped = enrolment.secret.match(/.{1,4}/g)?.join(" ") ?? enrolment.secret;
  return (
    <section
      aria-labelledby="totp-setup-heading"
      className="flex flex-col gap-4 rounded-lg border border-border p-4"
    >
      <h3 id="totp-setup-heading" className="font-semibold">
        {t("account.totp.title")}
      </h3>
      <ol className="flex list-decimal flex-col gap-1 ps-5 text-sm">
        <li>{t("account.totp.step1")}</li>
        <li>{t("account.totp.step2")}</li>
        <li>{t("account.totp.step3")}</li>
      </ol>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <TotpQrCode uri={enrolment.uri} />
        <div className="flex min-w-0 flex-col gap-1">
          <span className="text-muted-foreground text-sm">{t("account.totp.key")}</span>
          <div className="flex flex-wrap items-center gap-2">
            <code className="break-all font-mono text-base tabular-nums" data-testid="totp-secret" dir="ltr">
              {grouped}
            </code>
            <CopyButton
              value={enrolment.secret}
              label={t("account.totp.key")}
              copiedText={t("account.totp.keyCopied")}
              words={copyWords}
            />
          </div>
        </div>
      </div>
      <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field
          label={t("account.totp.code")}
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          error={errors.code}
          className="flex-1"
          inputClassName="font-mono tabular-nums"
        />
        <div className="flex gap-2">
          <Button type="submit" disabled={confirm.isPending}>
            {confirm.isPending ? t("account.totp.checking") : t("account.totp.turnOn")}
          </Button>
          <Button type="button" variant="ghost" onClick={onCancel}>
            {t("account.totp.cancel")}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** Whether the server asked the user to prove again that it is them (the session is no longer recent). */
function needsReauth(error: unknown): boolean {
  if (!isApiError(error) || error.status !== 403) return false;
  const body = error.body as { error?: { details?: { reason?: unknown } } } | undefined;
  return body?.error?.details?.reason === REAUTH_REQUIRED;
}

/**
 * "Confirm it is you", shown when the session is not recent: changing the second factors then needs the password
 * (to add one) or a current code (for any change), or a new sign-in. Without either, the way is to sign in again.
 */
function IdentityCheck({
  hasPassword,
  anyFactor,
  password,
  code,
  onPassword,
  onCode,
}: {
  hasPassword: boolean;
  anyFactor: boolean;
  password: string;
  code: string;
  onPassword: (v: string) => void;
  onCode: (v: string) => void;
}) {
  const t = useT();
  const what =
    hasPassword && anyFactor
      ? t("account.reauth.passwordOrCode")
      : hasPassword
        ? t("account.reauth.password")
        : anyFactor
          ? t("account.reauth.code")
          : t("account.reauth.signInAgain");
  return (
    <section
      aria-labelledby="identity-check-heading"
      className="flex flex-col gap-3 rounded-lg border border-border bg-muted/40 p-4"
    >
      <h3 id="identity-check-heading" className="font-semibold">
        {t("account.reauth.title")}
      </h3>
      <p className="text-sm" id="identity-check-text">
        {what}
      </p>
      {hasPassword ? (
        <Field
          label={t("account.reauth.passwordLabel")}
          name="reauth-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => onPassword(event.currentTarget.value)}
        />
      ) : null}
      {anyFactor ? (
        <Field
          label={t("account.reauth.codeLabel")}
          name="reauth-code"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => onCode(event.currentTarget.value)}
          inputClassName="font-mono"
        />
      ) : null}
    </section>
  );
}

function PasskeysPanel({
  status,
  reauthCode,
  addProof,
  onCodes,
  onFailed,
}: {
  status: TwoFactorState;
  reauthCode: string;
  addProof: AddFactorProof;
  onCodes: (codes: string[]) => void;
  onFailed: (title: string) => (error: Error) => void;
}) {
  const queryClient = useQueryClient();
  const t = useT();
  const locale = useLocale();
  const refresh = () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_QUERY_KEY });
  const [name, setName] = React.useState("");
  const add = useMutation({
    mutationFn: () => addPasskey(name.trim() || t("account.passkeys.defaultName"), addProof),
    onSuccess: (result) => {
      setName("");
      toast({
        title: t("account.passkeys.addedToast"),
        description: t("account.passkeys.addedText"),
      });
      if (result.recoveryCodes) onCodes(result.recoveryCodes);
      return refresh();
    },
    onError: onFailed(t("account.passkeys.notAdded")),
  });
  const remove = useMutation({
    mutationFn: (id: string) => removePasskey(id, reauthCode || undefined),
    onSuccess: () => {
      toast({ title: t("account.passkeys.removed") });
      return refresh();
    },
    onError: onFailed(t("account.passkeys.notRemoved")),
  });
  return (
    <div className="flex flex-col gap-3">
      <h3 className="flex items-center gap-2 font-semibold">
        <Fingerprint aria-hidden="true" className="size-5" /> {t("account.passkeys.title")}
      </h3>
      {status.passkeys.length ? (
        <ul
          className="flex flex-col divide-y divide-border rounded-lg border border-border"
          aria-label={t("account.passkeys.listLabel")}
        >
          {status.passkeys.map((key) => (
            <li key={key.id} className="flex items-center justify-between gap-3 p-3">
              <div className="flex min-w-0 flex-col">
                <span className="truncate font-medium">{key.name}</span>
                <span className="text-muted-foreground text-sm">
                  {t("account.passkeys.added", { date: formatDate(key.createdAt, locale) })}
                  {key.lastUsedAt
                    ? ` · ${t("account.passkeys.lastUsed", { date: formatDate(key.lastUsedAt, locale) })}`
                    : ""}
                </span>
              </div>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={t("account.passkeys.removeLabel", { name: key.name })}
                disabled={remove.isPending}
                onClick={() => remove.mutate(key.id)}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted-foreground text-sm">{t("account.passkeys.none")}</p>
      )}
      <form
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate();
        }}
      >
        <Field
          label={t("account.passkeys.name")}
          name="passkey-name"
          placeholder={t("account.passkeys.namePlaceholder")}
          maxLength={60}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          className="flex-1"
        />
        <Button type="submit" variant="outline" disabled={add.isPending}>
          <Fingerprint aria-hidden="true" />
          {add.isPending ? t("account.passkeys.waiting") : t("account.passkeys.add")}
        </Button>
      </form>
    </div>
  );
}

export function TwoFactorSection({ hasPassword }: { hasPassword: boolean }) {
  const queryClient = useQueryClient();
  const t = useT();
  const status = useQuery(twoFactorQueryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_QUERY_KEY });
  const [enrolment, setEnrolment] = React.useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = React.useState<string[] | null>(null);
  const [reauthCode, setReauthCode] = React.useState("");
  const [reauthPassword, setReauthPassword] = React.useState("");
  const addProof: AddFactorProof = {
    ...(reauthPassword ? { password: reauthPassword } : {}),
    ...(reauthCode.trim() ? { code: reauthCode.trim() } : {}),
  };
  const failed = (title: string) => (error: Error) => {
    toast({ title, description: accountErrorText(error), variant: "destructive" });
    // The session stopped being recent since the page loaded: show the "Confirm it is you" fields.
    if (needsReauth(error)) void refresh();
  };

  const setup = useMutation({
    mutationFn: () => startTotpSetup(addProof),
    onSuccess: (result) => {
      setReauthPassword("");
      setReauthCode("");
      setEnrolment(result);
    },
    onError: failed(t("account.twoFactor.couldNotStart")),
  });
  const disable = useMutation({
    mutationFn: () => disableTotp(reauthCode || undefined),
    onSuccess: () => {
      setReauthCode("");
      toast({ title: t("account.twoFactor.appOff") });
      return refresh();
    },
    onError: failed(t("account.twoFactor.notTurnedOff")),
  });
  const regenerate = useMutation({
    mutationFn: () => regenerateRecoveryCodes(reauthCode || undefined),
    onSuccess: (result) => {
      setReauthCode("");
      setCodes(result.recoveryCodes);
      return refresh();
    },
    onError: failed(t("account.twoFactor.noNewCodes")),
  });
  const require = useMutation({
    mutationFn: setRequireTwoFactor,
    onSuccess: (result) => {
      toast({
        title: result.requireTwoFactor ? t("account.twoFactor.required") : t("account.twoFactor.notRequired"),
      });
      return refresh();
    },
    onError: failed(t("account.twoFactor.notChanged")),
  });

  const data = status.data;
  const anyFactor = Boolean(data && (data.totpEnabled || data.passkeys.length > 0));
  return (
    <Card id="two-factor" role="region" aria-labelledby="two-factor-heading" className="scroll-mt-20">
      <CardHeader>
        <CardTitle id="two-factor-heading" className="flex items-center gap-2">
          {anyFactor ? (
            <ShieldCheck aria-hidden="true" className="size-5 text-success" />
          ) : (
            <ShieldOff aria-hidden="true" className="size-5" />
          )}
          {t("account.twoFactor.title")}
        </CardTitle>
        <CardDescription>
          {anyFactor ? t("account.twoFactor.on") : t("account.twoFactor.off")}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {!data ? (
          status.isError ? (
            <p role="alert" className="text-destructive text-sm">
              {t("account.twoFactor.loadFailed")}
            </p>
          ) : (
            <Spinner label={t("account.twoFactor.loading")} />
          )
        ) : (
          <>
            {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
            {data.recentSignIn ? null : (
              <IdentityCheck
                hasPassword={hasPassword}
                anyFactor={anyFactor}
                password={reauthPassword}
                code={reauthCode}
                onPassword={setReauthPassword}
                onCode={setReauthCode}
              />
            )}
            <div className="flex flex-col gap-3">
              <h3 className="flex items-center gap-2 font-semibold">
                <KeyRound aria-hidden="true" className="size-5" /> {t("account.twoFactor.app")}
              </h3>
              {data.totpEnabled ? (
                <p className="text-sm">
                  <span className="font-medium text-success">{t("account.twoFactor.appOn")}</span> —{" "}
                  {t("account.twoFactor.appOnText")}
                </p>
              ) : enrolment ? (
                <TotpEnrolmentPanel
                  enrolment={enrolment}
                  onCancel={() => setEnrolment(null)}
                  onConfirmed={(recoveryCodes) => {
                    setEnrolment(null);
                    setCodes(recoveryCodes);
                    toast({ title: t("account.twoFactor.turnedOn") });
                    void refresh();
                  }}
                />
              ) : (
                <div>
                  <Button type="button" onClick={() => setup.mutate()} disabled={setup.isPending}>
                    <KeyRound aria-hidden="true" />
                    {setup.isPending ? t("account.twoFactor.preparing") : t("account.twoFactor.setUp")}
                  </Button>
                </div>
              )}
            </div>
            <PasskeysPanel
              status={data}
              reauthCode={reauthCode}
              addProof={addProof}
              onCodes={setCodes}
              onFailed={failed}
            />
            {anyFactor ? (
              <div className="flex flex-col gap-3">
                <h3 className="font-semibold">{t("account.twoFactor.recoveryTitle")}</h3>
                <p className="text-muted-foreground text-sm">
                  {t("account.twoFactor.codesLeft", { count: data.recoveryCodesLeft, total: 10 })}
                </p>
                <div className="flex flex-wrap gap-2">
                  <Button
                    type="button"
                    variant="outline"
                    onClick={() => regenerate.mutate()}
                    disabled={regenerate.isPending}
                  >
                    {t("account.twoFactor.regenerate")}
                  </Button>
                  {data.totpEnabled ? (
                    <Button
                      type="button"
                      variant="destructive"
                      onClick={() => disable.mutate()}
                      disabled={disable.isPending}
                    >
                      {t("account.twoFactor.turnOff")}
                    </Button>
                  ) : null}
                </div>
              </div>
            ) : null}
            {data.requireTwoFactor !== null ? (
              <label className="flex min-h-11 items-start gap-3 rounded-lg border border-border p-3">
                <input
                  type="checkbox"
                  className="mt-1 size-5 accent-primary"
                  checked={data.requireTwoFactor}
                  disabled={require.isPending}
                  onChange={(event) => require.mutate(event.currentTarget.checked)}
                />
                <span className="flex flex-col gap-1">
                  <span className="font-medium">{t("account.twoFactor.require")}</span>
                  <span className="text-muted-foreground text-sm">{t("account.twoFactor.requireText")}</span>
                </span>
              </label>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
