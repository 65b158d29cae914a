import {
  changeEmailRequest,
  changePasswordRequest,
  changeUsernameRequest,
  PASSWORD_MIN_LENGTH,
} from "@common/auth.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LogOut, Monitor, Moon, Sun, Wallet } from "lucide-react";
import * as React from "react";
import { useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { formatDate, formatDateTime } from "@/features/payments/format";
import { useTheme } from "@/features/theme/theme-provider";
import { toast } from "@/hooks/use-toast";
import { Rich, useLocale, useT } from "@/i18n/i18n";
import { LanguageMenu } from "@/i18n/language-menu";
import { Ltr } from "@/i18n/ltr";
import { type FieldErrors, validate } from "@/lib/form-errors";
import { cn } from "@/lib/utils";
import { accountErrorText, accountFieldErrors } from "../account-error-text";
import {
  changeEmail,
  changePassword,
  changeUsername,
  revokeSession,
  SESSIONS_QUERY_KEY,
  sessionsQueryOptions,
  signOutEverywhere,
  updatePreferences,
} from "../api/account";
import { type SessionUser, USER_QUERY_KEY } from "../api/get-user";
import {
  getSiweNonce,
  linkWallet,
  unlinkWallet,
  WALLETS_QUERY_KEY,
  type WalletSigner,
  walletsQueryOptions,
} from "../api/siwe";

function useUserUpdate<T>(mutationFn: (input: T) => Promise<SessionUser>, success: string) {
  const queryClient = useQueryClient();
  const t = useT();
  return useMutation({
    mutationFn,
    onSuccess: (user) => {
      queryClient.setQueryData(USER_QUERY_KEY, user);
      toast({ title: success });
    },
    onError: (error) =>
      toast({
        title: t("account.profile.notSaved"),
        description: accountErrorText(error),
        variant: "destructive",
      }),
  });
}

export function AccountSection({ user }: { user: SessionUser }) {
  const t = useT();
  const locale = useLocale();
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const mutation = useUserUpdate(changeUsername, t("account.section.usernameChanged"));
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(changeUsernameRequest, {
      username: new FormData(event.currentTarget).get("username"),
    });
    setErrors(accountFieldErrors(result.errors ?? {}));
    if (result.data) mutation.mutate(result.data.username);
  };
  return (
    <Card aria-labelledby="account-heading">
      <CardHeader>
        <CardTitle id="account-heading">{t("account.section.account")}</CardTitle>
        <CardDescription>
          {t("account.section.memberSince", { date: formatDate(user.createdAt, locale) })}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4 sm:flex-row sm:items-end">
          <Field
            label={t("account.section.username")}
            name="username"
            defaultValue={user.username}
            key={user.username}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            error={errors.username}
            className="flex-1"
          />
          <Button type="submit" variant="outline" disabled={mutation.isPending}>
            {mutation.isPending ? t("account.section.saving") : t("account.section.changeUsername")}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function EmailSection({ user }: { user: SessionUser }) {
  const t = useT();
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const mutation = useUserUpdate(changeEmail, t("account.email.sent"));
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(changeEmailRequest, { email: new FormData(event.currentTarget).get("email") });
    setErrors(accountFieldErrors(result.errors ?? {}));
    if (result.data) mutation.mutate(result.data.email);
  };
  return (
    <Card aria-labelledby="email-heading">
      <CardHeader>
        <CardTitle id="email-heading">{t("account.email.title")}</CardTitle>
        <CardDescription>
          {user.email ? (
            <Rich
              id="account.email.confirmed"
              values={{
                email: (
                  <bdi dir="ltr" className="break-all font-medium text-foreground">
                    {user.email}
                  </bdi>
                ),
              }}
            />
          ) : (
            t("account.email.none")
          )}
        </CardDescription>
        {user.pendingEmail ? (
          <p className="rounded-md border border-warning/50 bg-warning/10 p-3 text-sm" role="status">
            <Rich
              id="account.email.pending"
              values={{
                email: (
                  <bdi dir="ltr" className="break-all font-medium">
                    {user.pendingEmail}
                  </bdi>
                ),
              }}
            />
          </p>
        ) : null}
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4 sm:flex-row sm:items-end">
          <Field
            label={user.email ? t("account.email.new") : t("account.email.label")}
            name="email"
            type="email"
            autoComplete="email"
            error={errors.email}
            className="flex-1"
          />
          <Button type="submit" variant="outline" disabled={mutation.isPending}>
            {mutation.isPending ? t("account.email.sending") : t("account.email.send")}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function PasswordSection({ user }: { user: SessionUser }) {
  const queryClient = useQueryClient();
  const t = useT();
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const formRef = React.useRef<HTMLFormElement>(null);
  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      formRef.current?.reset();
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
      queryClient.setQueryData(USER_QUERY_KEY, { ...user, hasPassword: true });
      toast({ title: t("account.password.changed"), description: t("account.password.changedText") });
    },
    onError: (error) =>
      toast({
        title: t("account.password.notChanged"),
        description: accountErrorText(error),
        variant: "destructive",
      }),
  });
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = {
      currentPassword: user.hasPassword ? String(form.get("currentPassword") ?? "") : undefined,
      newPassword: form.get("newPassword"),
    };
    const result = validate(changePasswordRequest, values);
    const nextErrors = accountFieldErrors(result.errors ?? {});
    if (user.hasPassword && !values.currentPassword)
      nextErrors.currentPassword = t("account.password.enterCurrent");
    if (form.get("newPassword") !== form.get("confirm")) nextErrors.confirm = t("account.password.mismatch");
    setErrors(nextErrors);
    if (result.data && Object.keys(nextErrors).length === 0) mutation.mutate(result.data);
  };
  return (
    <Card aria-labelledby="password-heading">
      <CardHeader>
        <CardTitle id="password-heading">
          {user.hasPassword ? t("account.password.title") : t("account.password.setTitle")}
        </CardTitle>
        <CardDescription>{t("account.password.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <form ref={formRef} onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
          {user.hasPassword ? (
            <Field
              label={t("account.password.current")}
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              error={errors.currentPassword}
              className="sm:col-span-2"
            />
          ) : null}
          <Field
            label={t("account.password.new")}
            name="newPassword"
            type="password"
            autoComplete="new-password"
            hint={t("account.password.hint", { min: PASSWORD_MIN_LENGTH })}
            error={errors.newPassword}
          />
          <Field
            label={t("account.password.confirm")}
            name="confirm"
            type="password"
            autoComplete="new-password"
            error={errors.confirm}
          />
          <Button
            type="submit"
            variant="outline"
            disabled={mutation.isPending}
            className="sm:col-span-2 sm:justify-self-start"
          >
            {mutation.isPending ? t("account.section.saving") : t("account.password.submit")}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** A short, readable name for a browser's user agent string. */
function deviceName(userAgent: string, t: ReturnType<typeof useT>): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrome\/|Chromium\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : null;
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Mac OS X/.test(userAgent)
        ? "macOS"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Linux/.test(userAgent)
            ? "Linux"
            : null;
  if (browser && system) return t("account.sessions.device", { browser, system });
  return browser ?? system ?? userAgent.slice(0, 60);
}

export function SessionsSection() {
  const queryClient = useQueryClient();
  const t = useT();
  const locale = useLocale();
  const [, navigate] = useLocation();
  const sessions = useQuery(sessionsQueryOptions());
  const revoke = useMutation({
    mutationFn: revokeSession,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
      toast({ title: t("account.sessions.signedOut") });
    },
    onError: (error) =>
      toast({
        title: t("account.sessions.notSignedOut"),
        description: accountErrorText(error),
        variant: "destructive",
      }),
  });
  const everywhere = useMutation({
    mutationFn: signOutEverywhere,
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_QUERY_KEY[0] });
      queryClient.setQueryData(USER_QUERY_KEY, null);
      toast({
        title: t("account.sessions.everywhereDone"),
        description: t("account.sessions.everywhereDoneText"),
      });
      navigate("/");
    },
    onError: (error) =>
      toast({
        title: t("account.sessions.notSignedOut"),
        description: accountErrorText(error),
        variant: "destructive",
      }),
  });
  return (
    <Card aria-labelledby="sessions-heading">
      <CardHeader>
        <CardTitle id="sessions-heading">{t("account.sessions.title")}</CardTitle>
        <CardDescription>{t("account.sessions.description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {sessions.isLoading ? (
          <Spinner label={t("account.sessions.loading")} />
        ) : sessions.isError ? (
          <p className="text-destructive text-sm">
            {t("account.sessions.loadFailed", { reason: accountErrorText(sessions.error) })}
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
            {sessions.data?.sessions.map((session) => (
              <li
                key={session.id}
                className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="font-medium">
                    {deviceName(session.device, t)}
                    {session.current ? (
                      <span className="ms-2 rounded-full bg-primary/15 px-2 py-0.5 text-primary text-xs">
                        {t("account.sessions.thisDevice")}
                      </span>
                    ) : null}
                  </p>
                  <p className="text-muted-foreground text-sm tabular-nums">
                    {t("account.sessions.lastActive", { time: formatDateTime(session.lastSeenAt, locale) })}
                    {session.ip ? (
                      <>
                        {" · "}
                        <Ltr>{session.ip}</Ltr>
                      </>
                    ) : null}
                  </p>
                </div>
                {session.current ? null : (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(session.id)}
                    aria-label={t("account.sessions.signOutLabel", { device: deviceName(session.device, t) })}
                  >
                    {t("account.sessions.signOut")}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        <SignOutEverywhere pending={everywhere.isPending} onConfirm={() => everywhere.mutate()} />
      </CardContent>
    </Card>
  );
}

const THEMES = [
  { value: "light", label: "account.preferences.light", icon: Sun },
  { value: "dark", label: "account.preferences.dark", icon: Moon },
  { value: "system", label: "account.preferences.system", icon: Monitor },
] as const;

export function PreferencesSection({ user }: { user: SessionUser }) {
  const t = useT();
  const { theme, setTheme } = useTheme();
  const mutation = useUserUpdate(updatePreferences, t("account.preferences.saved"));
  return (
    <Card aria-labelledby="preferences-heading">
      <CardHeader>
        <CardTitle id="preferences-heading">{t("account.preferences.title")}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-3 font-medium text-sm">{t("account.preferences.theme")}</legend>
          <div className="flex flex-wrap gap-2">
            {THEMES.map(({ value, label, icon: Icon }) => (
              <Button
                key={value}
                type="button"
                variant="outline"
                aria-pressed={theme === value}
                className={cn(theme === value && "border-primary bg-primary/10 text-foreground")}
                onClick={() => {
                  setTheme(value);
                  mutation.mutate({ theme: value });
                }}
              >
                <Icon aria-hidden="true" />
                {t(label)}
              </Button>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-col gap-2">
          <span className="font-medium text-sm">{t("account.preferences.language")}</span>
          <div className="flex flex-wrap items-center gap-3">
            <LanguageMenu />
            <span className="text-muted-foreground text-sm">{t("account.preferences.languageHint")}</span>
          </div>
        </div>
        <label className="flex min-h-11 cursor-pointer items-center gap-3">
          <input
            type="checkbox"
            className="size-5 accent-[var(--primary)]"
            checked={user.preferences.notifyPaymentEmails}
            disabled={mutation.isPending}
            onChange={(event) => mutation.mutate({ notifyPaymentEmails: event.target.checked })}
          />
          <span>
            <span className="font-medium">{t("account.preferences.notify")}</span>
            <span className="block text-muted-foreground text-sm">{t("account.preferences.notifyHint")}</span>
          </span>
        </label>
      </CardContent>
    </Card>
  );
}

const CHAIN_NAMES: Record<number, string> = {
  1: "Ethereum",
  11155111: "Sepolia",
  8453: "Base",
};

/** Wallets that sign in to this account (Sign-In with Ethereum); linking one proves it with a signature. */
export function LinkedWalletsSection({ user, signer }: { user: SessionUser; signer: WalletSigner }) {
  const queryClient = useQueryClient();
  const t = useT();
  const locale = useLocale();
  const chainName = (id: number) =>
    CHAIN_NAMES[id] ?? (id === 31337 ? t("account.wallets.devChain") : t("account.wallets.chain", { id }));
  const wallets = useQuery(walletsQueryOptions());
  const onSaved = (data: { wallets: unknown }, title: string) => {
    queryClient.setQueryData(WALLETS_QUERY_KEY, data);
    toast({ title });
  };
  const link = useMutation({
    mutationFn: async () => linkWallet(await signer(getSiweNonce)),
    onSuccess: (data) => onSaved(data, t("account.wallets.linked")),
    onError: (error) =>
      toast({
        title: t("account.wallets.notLinked"),
        description: accountErrorText(error),
        variant: "destructive",
      }),
  });
  const unlink = useMutation({
    mutationFn: unlinkWallet,
    onSuccess: (data) => onSaved(data, t("account.wallets.removed")),
    onError: (error) =>
      toast({
        title: t("account.wallets.notRemoved"),
        description: accountErrorText(error),
        variant: "destructive",
      }),
  });
  const list = wallets.data?.wallets ?? [];
  return (
    <Card aria-labelledby="wallets-heading" data-testid="linked-wallets-section">
      <CardHeader>
        <CardTitle id="wallets-heading">{t("account.wallets.title")}</CardTitle>
        <CardDescription>
          {t("account.wallets.description")}
          {user.hasPassword ? "" : ` ${t("account.wallets.keepOne")}`}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {wallets.isLoading ? (
          <Spinner label={t("account.wallets.loading")} />
        ) : wallets.isError ? (
          <p className="text-destructive text-sm">
            {t("account.wallets.loadFailed", { reason: accountErrorText(wallets.error) })}
          </p>
        ) : list.length === 0 ? (
          <p className="text-muted-foreground text-sm">{t("account.wallets.none")}</p>
        ) : (
          <ul
            className="flex flex-col divide-y divide-border rounded-lg border border-border"
            data-testid="linked-wallets"
          >
            {list.map((wallet) => (
              <li
                key={wallet.address}
                className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="truncate font-medium font-mono" title={wallet.address} dir="ltr">
                    {`${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`}
                  </p>
                  <p className="text-muted-foreground text-sm">
                    {t("account.wallets.linkedOn", {
                      date: formatDate(wallet.createdAt, locale),
                      chain: chainName(wallet.chainId),
                    })}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={unlink.isPending}
                  onClick={() => unlink.mutate(wallet.address)}
                  aria-label={t("account.wallets.removeLabel", { address: wallet.address })}
                >
                  {t("account.wallets.remove")}
                </Button>
              </li>
            ))}
          </ul>
        )}
        <Button
          variant="outline"
          className="self-start"
          disabled={link.isPending}
          onClick={() => link.mutate()}
        >
          <Wallet aria-hidden="true" />
          {link.isPending ? t("account.wallets.waiting") : t("account.wallets.link")}
        </Button>
      </CardContent>
    </Card>
  );
}

/** Ending every session (this one too) is asked twice: the button, then a confirmation with Cancel. */
function SignOutEverywhere({ pending, onConfirm }: { pending: boolean; onConfirm: () => void }) {
  const t = useT();
  const [asking, setAsking] = React.useState(false);
  const confirm = React.useRef<HTMLButtonElement>(null);
  const ask = React.useRef<HTMLButtonElement>(null);
  const answered = React.useRef(false);
  React.useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (answered.current) ask.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <Button ref={ask} variant="destructive" className="self-start" onClick={() => setAsking(true)}>
        <LogOut aria-hidden="true" /> {t("account.sessions.everywhere")}
      </Button>
    );
  }
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-destructive/50 p-3">
      <legend className="float-left font-medium text-sm">{t("account.sessions.confirmEverywhere")}</legend>
      <div className="flex flex-wrap gap-2">
        <Button ref={confirm} variant="destructive" disabled={pending} onClick={onConfirm}>
          <LogOut aria-hidden="true" />
          {pending ? t("account.sessions.signingOut") : t("account.sessions.yesEverywhere")}
        </Button>
        <Button
          variant="outline"
          disabled={pending}
          onClick={() => {
            answered.current = true;
            setAsking(false);
          }}
        >
          {t("account.sessions.cancel")}
        </Button>
      </div>
    </fieldset>
  );
}
