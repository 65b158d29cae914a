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
import { useTheme } from "@/features/theme/theme-provider";
import { toast } from "@/hooks/use-toast";
import { type FieldErrors, validate } from "@/lib/form-errors";
import { cn } from "@/lib/utils";
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
import { describeError } from "../error-message";

function useUserUpdate<T>(mutationFn: (input: T) => Promise<SessionUser>, success: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (user) => {
      queryClient.setQueryData(USER_QUERY_KEY, user);
      toast({ title: success });
    },
    onError: (error) =>
      toast({ title: "Not saved", description: describeError(error), variant: "destructive" }),
  });
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function AccountSection({ user }: { user: SessionUser }) {
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const mutation = useUserUpdate(changeUsername, "Username changed");
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(changeUsernameRequest, {
      username: new FormData(event.currentTarget).get("username"),
    });
    setErrors(result.errors ?? {});
    if (result.data) mutation.mutate(result.data.username);
  };
  return (
    <Card aria-labelledby="account-heading">
      <CardHeader>
        <CardTitle id="account-heading">Account</CardTitle>
        <CardDescription>Member since {dateFormat.format(new Date(user.createdAt))}.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4 sm:flex-row sm:items-end">
          <Field
            label="Username"
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
            {mutation.isPending ? "Saving..." : "Change username"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function EmailSection({ user }: { user: SessionUser }) {
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const mutation = useUserUpdate(changeEmail, "Check your inbox for the confirmation link");
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(changeEmailRequest, { email: new FormData(event.currentTarget).get("email") });
    setErrors(result.errors ?? {});
    if (result.data) mutation.mutate(result.data.email);
  };
  return (
    <Card aria-labelledby="email-heading">
      <CardHeader>
        <CardTitle id="email-heading">Email</CardTitle>
        <CardDescription>
          {user.email ? (
            <>
              Confirmed: <span className="font-medium text-foreground">{user.email}</span>. Used for payment
              notifications and password resets.
            </>
          ) : (
            "No confirmed email yet. Add one to receive payment notifications and to reset a forgotten password."
          )}
        </CardDescription>
        {user.pendingEmail ? (
          <p className="rounded-md border border-warning/50 bg-warning/10 p-3 text-sm" role="status">
            Waiting for confirmation: <span className="font-medium">{user.pendingEmail}</span>. Open the link
            we sent there (it works for 48 hours).
          </p>
        ) : null}
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4 sm:flex-row sm:items-end">
          <Field
            label={user.email ? "New email" : "Email"}
            name="email"
            type="email"
            autoComplete="email"
            error={errors.email}
            className="flex-1"
          />
          <Button type="submit" variant="outline" disabled={mutation.isPending}>
            {mutation.isPending ? "Sending..." : "Send confirmation link"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function PasswordSection({ user }: { user: SessionUser }) {
  const queryClient = useQueryClient();
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const formRef = React.useRef<HTMLFormElement>(null);
  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: (result) => {
      formRef.current?.reset();
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
      queryClient.setQueryData(USER_QUERY_KEY, { ...user, hasPassword: true });
      toast({ title: "Password changed", description: result.message });
    },
    onError: (error) =>
      toast({ title: "Password not changed", description: describeError(error), variant: "destructive" }),
  });
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = {
      currentPassword: user.hasPassword ? String(form.get("currentPassword") ?? "") : undefined,
      newPassword: form.get("newPassword"),
    };
    const result = validate(changePasswordRequest, values);
    const nextErrors = { ...result.errors };
    if (user.hasPassword && !values.currentPassword)
      nextErrors.currentPassword = "Enter your current password";
    if (form.get("newPassword") !== form.get("confirm")) nextErrors.confirm = "The passwords do not match.";
    setErrors(nextErrors);
    if (result.data && Object.keys(nextErrors).length === 0) mutation.mutate(result.data);
  };
  return (
    <Card aria-labelledby="password-heading">
      <CardHeader>
        <CardTitle id="password-heading">{user.hasPassword ? "Password" : "Set a password"}</CardTitle>
        <CardDescription>Changing it signs you out on every other device.</CardDescription>
      </CardHeader>
      <CardContent>
        <form ref={formRef} onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
          {user.hasPassword ? (
            <Field
              label="Current password"
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              error={errors.currentPassword}
              className="sm:col-span-2"
            />
          ) : null}
          <Field
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
            error={errors.newPassword}
          />
          <Field
            label="Confirm new password"
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
            {mutation.isPending ? "Saving..." : "Change password"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** A short, readable name for a browser's user agent string. */
function deviceName(userAgent: string): string {
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
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}

export function SessionsSection() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const sessions = useQuery(sessionsQueryOptions());
  const revoke = useMutation({
    mutationFn: revokeSession,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
      toast({ title: "Session signed out" });
    },
    onError: (error) =>
      toast({ title: "Not signed out", description: describeError(error), variant: "destructive" }),
  });
  const everywhere = useMutation({
    mutationFn: signOutEverywhere,
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_QUERY_KEY[0] });
      queryClient.setQueryData(USER_QUERY_KEY, null);
      toast({ title: "Signed out everywhere", description: "Every session of your account has ended." });
      navigate("/");
    },
    onError: (error) =>
      toast({ title: "Not signed out", description: describeError(error), variant: "destructive" }),
  });
  return (
    <Card aria-labelledby="sessions-heading">
      <CardHeader>
        <CardTitle id="sessions-heading">Sessions</CardTitle>
        <CardDescription>
          Devices where your account is signed in. Sign out any you do not recognise.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {sessions.isLoading ? (
          <Spinner label="Loading sessions" />
        ) : sessions.isError ? (
          <p className="text-destructive text-sm">
            Could not load your sessions: {describeError(sessions.error)}
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
                    {deviceName(session.device)}
                    {session.current ? (
                      <span className="ml-2 rounded-full bg-primary/15 px-2 py-0.5 text-primary text-xs">
                        This device
                      </span>
                    ) : null}
                  </p>
                  <p className="text-muted-foreground text-sm tabular-nums">
                    Last active {dateTimeFormat.format(new Date(session.lastSeenAt))}
                    {session.ip ? ` · ${session.ip}` : ""}
                  </p>
                </div>
                {session.current ? null : (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(session.id)}
                    aria-label={`Sign out ${deviceName(session.device)}`}
                  >
                    Sign out
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
  { value: "light", label: "Light", icon: Sun },
  { value: "dark", label: "Dark", icon: Moon },
  { value: "system", label: "System", icon: Monitor },
] as const;

export function PreferencesSection({ user }: { user: SessionUser }) {
  const { theme, setTheme } = useTheme();
  const mutation = useUserUpdate(updatePreferences, "Preferences saved");
  return (
    <Card aria-labelledby="preferences-heading">
      <CardHeader>
        <CardTitle id="preferences-heading">Preferences</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-3 font-medium text-sm">Theme</legend>
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
                {label}
              </Button>
            ))}
          </div>
        </fieldset>
        <label className="flex min-h-11 cursor-pointer items-center gap-3">
          <input
            type="checkbox"
            className="size-5 accent-[var(--primary)]"
            checked={user.preferences.notifyPaymentEmails}
            disabled={mutation.isPending}
            onChange={(event) => mutation.mutate({ notifyPaymentEmails: event.target.checked })}
          />
          <span>
            <span className="font-medium">Email me when a payment completes</span>
            <span className="block text-muted-foreground text-sm">Sent to your confirmed email address.</span>
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
  31337: "Development chain",
};

/** Wallets that sign in to this account (Sign-In with Ethereum); linking one proves it with a signature. */
export function LinkedWalletsSection({ user, signer }: { user: SessionUser; signer: WalletSigner }) {
  const queryClient = useQueryClient();
  const wallets = useQuery(walletsQueryOptions());
  const onSaved = (data: { wallets: unknown }, title: string) => {
    queryClient.setQueryData(WALLETS_QUERY_KEY, data);
    toast({ title });
  };
  const link = useMutation({
    mutationFn: async () => linkWallet(await signer(getSiweNonce)),
    onSuccess: (data) => onSaved(data, "Wallet linked"),
    onError: (error) =>
      toast({ title: "Wallet not linked", description: describeError(error), variant: "destructive" }),
  });
  const unlink = useMutation({
    mutationFn: unlinkWallet,
    onSuccess: (data) => onSaved(data, "Wallet removed"),
    onError: (error) =>
      toast({ title: "Wallet not removed", description: describeError(error), variant: "destructive" }),
  });
  const list = wallets.data?.wallets ?? [];
  return (
    <Card aria-labelledby="wallets-heading" data-testid="linked-wallets-section">
      <CardHeader>
        <CardTitle id="wallets-heading">Wallets linked for sign-in</CardTitle>
        <CardDescription>
          Wallets of your own (you hold their keys): each can sign in to this account with &ldquo;Sign in with
          Ethereum&rdquo;. They hold no money for you here; a CPXTB wallet held for you, if you have one, is
          shown above.
          {user.hasPassword ? "" : " Keep at least one, or set a password, so you can always get back in."}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {wallets.isLoading ? (
          <Spinner label="Loading wallets" />
        ) : wallets.isError ? (
          <p className="text-destructive text-sm">
            Could not load your wallets: {describeError(wallets.error)}
          </p>
        ) : list.length === 0 ? (
          <p className="text-muted-foreground text-sm">No wallet is linked yet.</p>
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
                  <p className="truncate font-medium font-mono" title={wallet.address}>
                    {`${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`}
                  </p>
                  <p className="text-muted-foreground text-sm">
                    Linked {dateFormat.format(new Date(wallet.createdAt))} · signed on{" "}
                    {CHAIN_NAMES[wallet.chainId] ?? `chain ${wallet.chainId}`}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={unlink.isPending}
                  onClick={() => unlink.mutate(wallet.address)}
                  aria-label={`Remove wallet ${wallet.address}`}
                >
                  Remove
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
          {link.isPending ? "Check your wallet..." : "Link a wallet"}
        </Button>
      </CardContent>
    </Card>
  );
}

/** Ending every session (this one too) is asked twice: the button, then a confirmation with Cancel. */
function SignOutEverywhere({ pending, onConfirm }: { pending: boolean; onConfirm: () => void }) {
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
        <LogOut aria-hidden="true" /> Sign out everywhere
      </Button>
    );
  }
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-destructive/50 p-3">
      <legend className="float-left font-medium text-sm">
        Sign out on every device, this one included? You will have to sign in again everywhere.
      </legend>
      <div className="flex flex-wrap gap-2">
        <Button ref={confirm} variant="destructive" disabled={pending} onClick={onConfirm}>
          <LogOut aria-hidden="true" />
          {pending ? "Signing out..." : "Yes, sign out everywhere"}
        </Button>
        <Button
          variant="outline"
          disabled={pending}
          onClick={() => {
            answered.current = true;
            setAsking(false);
          }}
        >
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}
