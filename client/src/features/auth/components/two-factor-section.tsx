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
import { toast } from "@/hooks/use-toast";
import { isApiError } from "@/lib/api-client";
import { type FieldErrors, validate } from "@/lib/form-errors";
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
import { describeError } from "../error-message";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** The QR code of the otpauth:// URI; the encoder loads only when a set-up starts. */
function TotpQrCode({ uri }: { uri: string }) {
  const qr = useQuery({
    queryKey: ["totp-qr", uri],
    queryFn: async () => (await import("@common/qr")).qrSvgPath(uri),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  if (!qr.data) return <Spinner label="Drawing the QR code" />;
  return (
    <svg
      role="img"
      aria-label="QR code to scan with your authenticator app"
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
  const [copied, setCopied] = React.useState(false);
  return (
    <section
      aria-labelledby="recovery-codes-heading"
      className="flex flex-col gap-3 rounded-lg border border-warning/60 bg-warning/10 p-4"
    >
      <h3 id="recovery-codes-heading" className="font-semibold">
        Save your recovery codes
      </h3>
      <p className="text-sm">
        Each code signs you in once if you lose your phone or passkey. They are shown only now: copy them to a
        password manager or print them.
      </p>
      <ol
        className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-base tabular-nums"
        aria-label="Recovery codes"
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
              .catch(() => toast({ title: "Could not copy", description: "Select the codes and copy them." }))
          }
        >
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? "Copied" : "Copy codes"}
        </Button>
        <Button type="button" onClick={onDone}>
          I have saved them
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
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const confirm = useMutation({
    mutationFn: confirmTotp,
    onSuccess: (result) => onConfirmed(result.recoveryCodes),
    onError: (error) => setErrors({ code: describeError(error) }),
  });
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(confirmTotpRequest, { code: new FormData(event.currentTarget).get("code") });
    setErrors(result.errors ?? {});
    if (result.data) confirm.mutate(result.data.code);
  };
  const grouped = enrolment.secret.match(/.{1,4}/g)?.join(" ") ?? enrolment.secret;
  return (
    <section
      aria-labelledby="totp-setup-heading"
      className="flex flex-col gap-4 rounded-lg border border-border p-4"
    >
      <h3 id="totp-setup-heading" className="font-semibold">
        Set up your authenticator app
      </h3>
      <ol className="flex list-decimal flex-col gap-1 pl-5 text-sm">
        <li>Open an authenticator app (Google Authenticator, 1Password, Authy, Microsoft Authenticator…).</li>
        <li>Scan this QR code, or type the key below.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <TotpQrCode uri={enrolment.uri} />
        <div className="flex min-w-0 flex-col gap-1">
          <span className="text-muted-foreground text-sm">Setup key</span>
          <div className="flex flex-wrap items-center gap-2">
            <code className="break-all font-mono text-base tabular-nums" data-testid="totp-secret">
              {grouped}
            </code>
            <CopyButton
              value={enrolment.secret}
              label="Setup key"
              copiedText="Paste it into your authenticator app."
            />
          </div>
        </div>
      </div>
      <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field
          label="Code from the app"
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
            {confirm.isPending ? "Checking..." : "Turn on"}
          </Button>
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
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
  const what =
    hasPassword && anyFactor
      ? "Enter your password to add a second factor, or a current code for any change."
      : hasPassword
        ? "Enter your password to add a second factor."
        : anyFactor
          ? "Enter a current code from your authenticator app (or a recovery code) to change your second factors."
          : "Sign out and sign in again to add a second factor.";
  return (
    <section
      aria-labelledby="identity-check-heading"
      className="flex flex-col gap-3 rounded-lg border border-border bg-muted/40 p-4"
    >
      <h3 id="identity-check-heading" className="font-semibold">
        Confirm it is you
      </h3>
      <p className="text-sm" id="identity-check-text">
        You signed in more than 10 minutes ago. {what}
      </p>
      {hasPassword ? (
        <Field
          label="Your password"
          name="reauth-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => onPassword(event.currentTarget.value)}
        />
      ) : null}
      {anyFactor ? (
        <Field
          label="Current code (authenticator app or recovery code)"
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
  const refresh = () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_QUERY_KEY });
  const [name, setName] = React.useState("");
  const add = useMutation({
    mutationFn: () => addPasskey(name.trim() || "Passkey", addProof),
    onSuccess: (result) => {
      setName("");
      toast({
        title: "Passkey added",
        description: "You can sign in with it, or use it as your second factor.",
      });
      if (result.recoveryCodes) onCodes(result.recoveryCodes);
      return refresh();
    },
    onError: onFailed("Passkey not added"),
  });
  const remove = useMutation({
    mutationFn: (id: string) => removePasskey(id, reauthCode || undefined),
    onSuccess: () => {
      toast({ title: "Passkey removed" });
      return refresh();
    },
    onError: onFailed("Passkey not removed"),
  });
  return (
    <div className="flex flex-col gap-3">
      <h3 className="flex items-center gap-2 font-semibold">
        <Fingerprint aria-hidden="true" className="size-5" /> Passkeys
      </h3>
      {status.passkeys.length ? (
        <ul
          className="flex flex-col divide-y divide-border rounded-lg border border-border"
          aria-label="Your passkeys"
        >
          {status.passkeys.map((key) => (
            <li key={key.id} className="flex items-center justify-between gap-3 p-3">
              <div className="flex min-w-0 flex-col">
                <span className="truncate font-medium">{key.name}</span>
                <span className="text-muted-foreground text-sm">
                  Added {dateFormat.format(new Date(key.createdAt))}
                  {key.lastUsedAt ? ` · last used ${dateFormat.format(new Date(key.lastUsedAt))}` : ""}
                </span>
              </div>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={`Remove passkey ${key.name}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate(key.id)}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted-foreground text-sm">
          No passkeys yet. A passkey signs you in with your fingerprint, face or device PIN — no password to
          type.
        </p>
      )}
      <form
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate();
        }}
      >
        <Field
          label="Passkey name"
          name="passkey-name"
          placeholder="e.g. Shop laptop"
          maxLength={60}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          className="flex-1"
        />
        <Button type="submit" variant="outline" disabled={add.isPending}>
          <Fingerprint aria-hidden="true" />
          {add.isPending ? "Waiting for your device..." : "Add a passkey"}
        </Button>
      </form>
    </div>
  );
}

export function TwoFactorSection({ hasPassword }: { hasPassword: boolean }) {
  const queryClient = useQueryClient();
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
    toast({ title, description: describeError(error), variant: "destructive" });
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
    onError: failed("Could not start"),
  });
  const disable = useMutation({
    mutationFn: () => disableTotp(reauthCode || undefined),
    onSuccess: () => {
      setReauthCode("");
      toast({ title: "Authenticator app turned off" });
      return refresh();
    },
    onError: failed("Not turned off"),
  });
  const regenerate = useMutation({
    mutationFn: () => regenerateRecoveryCodes(reauthCode || undefined),
    onSuccess: (result) => {
      setReauthCode("");
      setCodes(result.recoveryCodes);
      return refresh();
    },
    onError: failed("No new codes"),
  });
  const require = useMutation({
    mutationFn: setRequireTwoFactor,
    onSuccess: (result) => {
      toast({
        title: result.requireTwoFactor
          ? "Two-factor sign-in required"
          : "Two-factor sign-in no longer required",
      });
      return refresh();
    },
    onError: failed("Not changed"),
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
          Two-factor sign-in
        </CardTitle>
        <CardDescription>
          {anyFactor
            ? "On: signing in asks for a second factor after your password, wallet or social account."
            : "Off. Add an authenticator app or a passkey so a stolen password alone cannot open your account."}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {!data ? (
          status.isError ? (
            <p role="alert" className="text-destructive text-sm">
              Could not load your two-factor settings. Reload the page to try again.
            </p>
          ) : (
            <Spinner label="Loading two-factor settings" />
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
                <KeyRound aria-hidden="true" className="size-5" /> Authenticator app
              </h3>
              {data.totpEnabled ? (
                <p className="text-sm">
                  <span className="font-medium text-success">On</span> — codes from your app are accepted at
                  sign-in.
                </p>
              ) : enrolment ? (
                <TotpEnrolmentPanel
                  enrolment={enrolment}
                  onCancel={() => setEnrolment(null)}
                  onConfirmed={(recoveryCodes) => {
                    setEnrolment(null);
                    setCodes(recoveryCodes);
                    toast({ title: "Two-factor sign-in is on" });
                    void refresh();
                  }}
                />
              ) : (
                <div>
                  <Button type="button" onClick={() => setup.mutate()} disabled={setup.isPending}>
                    <KeyRound aria-hidden="true" />
                    {setup.isPending ? "Preparing..." : "Set up authenticator app"}
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
                <h3 className="font-semibold">Recovery codes and changes</h3>
                <p className="text-muted-foreground text-sm">
                  {data.recoveryCodesLeft} of 10 recovery codes left.
                </p>
                <div className="flex flex-wrap gap-2">
                  <Button
                    type="button"
                    variant="outline"
                    onClick={() => regenerate.mutate()}
                    disabled={regenerate.isPending}
                  >
                    Generate new recovery codes
                  </Button>
                  {data.totpEnabled ? (
                    <Button
                      type="button"
                      variant="destructive"
                      onClick={() => disable.mutate()}
                      disabled={disable.isPending}
                    >
                      Turn off authenticator app
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
                  <span className="font-medium">Require two-factor sign-in for my business</span>
                  <span className="text-muted-foreground text-sm">
                    Everyone who signs in to your business must use a second factor. It stays on while you
                    keep yours.
                  </span>
                </span>
              </label>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
