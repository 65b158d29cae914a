import type { ManagedWalletResponse, WalletSendItem } from "@common/social";
import { SOCIAL_PROVIDER_NAMES, type SocialProvider } from "@common/social-values";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowUpRight, CircleCheck, Coins, ExternalLink, LogIn, Send, Wallet } from "lucide-react";
import * as React from "react";
import { formatUnits, getAddress, isAddress, parseUnits } from "viem";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { CopyButton } from "@/features/payments/components/copy-button";
import { useCopyWords } from "@/features/payments/copy-words";
import { formatDateTime, formatTokenAmount, shortAddress } from "@/features/payments/format";
import { apiErrorText } from "@/features/payments/pay-error-text";
import { toast } from "@/hooks/use-toast";
import { currentLocale, Rich, t, useLocale, useT } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-client";
import {
  MANAGED_WALLET_QUERY_KEY,
  managedWalletQueryOptions,
  realLoginUrl,
  socialAccountsQueryOptions,
  WALLET_SENDS_QUERY_KEY,
  walletSendsQueryOptions,
  withdrawFromManagedWallet,
} from "../api/social";
import { markRealLoginPending } from "../social-session";

/** The token's decimals (CPXTB, like every ERC-20 this platform takes, has 18). */
const DECIMALS = 18;
/** The form's values while the payer signs in again (this tab only): they come back to the form. */
const DRAFT_KEY = "cpxtb_withdraw_draft";

type Draft = { to: string; amount: string; key: string | null };

function readDraft(): Draft | null {
  try {
    const value = JSON.parse(window.sessionStorage.getItem(DRAFT_KEY) ?? "null") as Partial<Draft> | null;
    if (!value || typeof value.to !== "string" || typeof value.amount !== "string") return null;
    return {
      to: value.to.slice(0, 100),
      amount: value.amount.slice(0, 60),
      key: typeof value.key === "string" && /^[A-Za-z0-9_.:-]{8,100}$/.test(value.key) ? value.key : null,
    };
  } catch {
    return null;
  }
}

function writeDraft(draft: Draft | null) {
  try {
    if (draft) window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
    else window.sessionStorage.removeItem(DRAFT_KEY);
  } catch {
    // Private mode without storage: the values are only lost, nothing is sent.
  }
}

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `wd-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Base units of a decimal string, or null when it is not an amount. */
function toBase(amount: string): bigint | null {
  if (!/^\d{1,30}(\.\d{1,18})?$/.test(amount)) return null;
  try {
    return parseUnits(amount, DECIMALS);
  } catch {
    return null;
  }
}

/**
 * A failed request in the reader's words (`apiErrorText`): the shared reading (network, signed out, server fault),
 * then what the wallet's refusals mean (server/src/modules/wallet/service.ts): over the daily limit, more than the
 * balance, no managed wallet, values the server refused. Never "403:" or "422:".
 */
function inWords(error: unknown): string {
  return apiErrorText(error, {
    signedOut: "account.error.signedOut",
    forbidden: "account.error.forbidden",
    byCode: ({ code, details }) => {
      if (details?.reason === "daily_limit") return t("wallet.profile.error.dailyLimit");
      if (code === "UNPROCESSABLE") return t("wallet.profile.error.balance");
      if (code === "NOT_FOUND") return t("wallet.profile.error.noWallet");
      if (code === "VALIDATION_ERROR") return t("wallet.profile.error.invalid");
      if (code === "CONFLICT") return t("wallet.profile.error.conflict");
      return undefined;
    },
  });
}

function reasonOf(error: unknown): string | null {
  if (!isApiError(error)) return null;
  const reason = (error.body as { error?: { details?: { reason?: unknown } } } | undefined)?.error?.details
    ?.reason;
  return typeof reason === "string" ? reason : null;
}

function checkAddress(to: string): { address: string | null; error: string | null } {
  const value = to.trim();
  if (!value) return { address: null, error: t("wallet.profile.toRequired") };
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) {
    return { address: null, error: t("wallet.profile.toShape") };
  }
  // Mixed case carries a checksum (EIP-55): a mistyped character fails it. All lower or upper case has none.
  if (!isAddress(value, { strict: true })) {
    return { address: null, error: t("wallet.profile.toChecksum") };
  }
  return { address: getAddress(value), error: null };
}

/**
 * /profile's "CPXTB wallet (held for you)": the managed wallet of a social sign-in (decision 012), its balance from
 * the chain, the full address, what the daily limit leaves, a withdraw form and the list of sends. Loaded lazily
 * (with viem, for the address checksum) only for accounts that have such a wallet.
 */
export default function ManagedWalletSection() {
  const t = useT();
  const locale = useLocale();
  const copyWords = useCopyWords();
  const wallet = useQuery(managedWalletQueryOptions());
  if (!wallet.data) return null;
  const w = wallet.data;
  const leftToday = maxBigint(toBase(w.dailyLimit)! - toBase(w.spentToday)!, 0n);
  return (
    <Card aria-labelledby="managed-wallet-heading" data-testid="managed-wallet-section">
      <CardHeader>
        <CardTitle id="managed-wallet-heading" className="flex items-center gap-2">
          <Wallet aria-hidden="true" className="size-5" /> {t("wallet.profile.title")}
        </CardTitle>
        <CardDescription>{t("wallet.profile.description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted-foreground">{t("wallet.checkout.balance")}</dt>
          <dd className="text-end font-semibold tabular-nums" data-testid="managed-wallet-balance">
            <span dir="ltr">
              {formatTokenAmount(w.balance, locale)} {w.symbol}
            </span>
          </dd>
          <dt className="text-muted-foreground">{t("wallet.profile.limitLeft")}</dt>
          <dd className="text-end tabular-nums" data-testid="managed-wallet-limit-left">
            {t("wallet.profile.limitLeftOf", {
              left: formatTokenAmount(formatUnits(leftToday, DECIMALS), locale),
              limit: formatTokenAmount(w.dailyLimit, locale),
              symbol: w.symbol,
            })}
          </dd>
        </dl>
        <div className="flex flex-col gap-2">
          <h3 className="text-muted-foreground text-sm">
            {t("wallet.checkout.address", { network: "Base" })}
          </h3>
          <div className="flex items-start gap-2">
            <p
              className="min-w-0 flex-1 break-all rounded-md bg-muted px-3 py-2 font-mono text-sm"
              dir="ltr"
              data-testid="managed-wallet-address"
            >
              {w.address}
            </p>
            <CopyButton
              value={w.address}
              label={t("wallet.checkout.addressLabel")}
              copiedText={t("wallet.checkout.addressCopied")}
              words={copyWords}
              className="h-11 shrink-0"
            />
          </div>
          <Button asChild variant="outline" className="h-11 self-start">
            <Link href="/buy-cpxtb?to=managed" data-testid="managed-wallet-buy">
              <Coins aria-hidden="true" /> {t("wallet.profile.buy")}
            </Link>
          </Button>
        </div>
        <WithdrawForm wallet={w} leftToday={leftToday} />
        <SendsList />
      </CardContent>
    </Card>
  );
}

function maxBigint(a: bigint, b: bigint) {
  return a > b ? a : b;
}

function WithdrawForm({ wallet, leftToday }: { wallet: ManagedWalletResponse; leftToday: bigint }) {
  const queryClient = useQueryClient();
  const t = useT();
  const locale = useLocale();
  // Back from signing in again: the values kept for this are in the form (the page reloads once after a sign-in,
  // so the draft stays until the withdrawal is sent).
  const restored = React.useMemo(readDraft, []);
  const [to, setTo] = React.useState(restored?.to ?? "");
  const [amount, setAmount] = React.useState(restored?.amount ?? "");
  const [errors, setErrors] = React.useState<{ to?: string | undefined; amount?: string | undefined }>({});
  // One key per submission: kept while the same values are sent again (a retry after an error or after signing in
  // again), so the server sends at most once; new values or a finished withdrawal get a new one.
  const attempt = React.useRef<Draft | null>(restored?.key ? restored : null);
  const balance = toBase(wallet.balance) ?? 0n;
  const max = balance < leftToday ? balance : leftToday;

  const withdraw = useMutation({
    mutationFn: withdrawFromManagedWallet,
    onSuccess: (sent) => {
      attempt.current = null;
      writeDraft(null);
      setTo("");
      setAmount("");
      toast({
        title: t("wallet.profile.withdrawSent"),
        description: t("wallet.profile.withdrawSentText", {
          amount: formatTokenAmount(sent.amount, currentLocale()),
          symbol: wallet.symbol,
          to: shortAddress(sent.to),
        }),
      });
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: MANAGED_WALLET_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: WALLET_SENDS_QUERY_KEY });
    },
  });

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const address = checkAddress(to);
    const value = amount.trim();
    const base = toBase(value);
    let amountError: string | undefined;
    if (!value) amountError = t("wallet.profile.amountRequired");
    else if (base === null)
      amountError = t("wallet.profile.amountShape", { example: "12.5", decimals: DECIMALS });
    else if (base <= 0n) amountError = t("wallet.profile.amountZero");
    else if (base > balance)
      amountError = t("wallet.profile.amountOverBalance", {
        amount: formatTokenAmount(wallet.balance, locale),
        symbol: wallet.symbol,
      });
    else if (base > leftToday)
      amountError = t("wallet.profile.amountOverLimit", {
        amount: formatTokenAmount(formatUnits(leftToday, DECIMALS), locale),
        symbol: wallet.symbol,
      });
    setErrors({ to: address.error ?? undefined, amount: amountError });
    if (address.error || amountError || !address.address) return;
    const same =
      attempt.current &&
      attempt.current.to.toLowerCase() === address.address.toLowerCase() &&
      toBase(attempt.current.amount) === base;
    if (!same || !attempt.current?.key)
      attempt.current = { to: address.address, amount: value, key: newKey() };
    withdraw.mutate({ to: address.address, amount: value, idempotencyKey: attempt.current.key! });
  };

  const needsSignIn = withdraw.isError && reasonOf(withdraw.error) === "recent_sign_in_required";

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4 border-border border-t pt-4"
      aria-labelledby="withdraw-heading"
      data-testid="withdraw-form"
    >
      <h3 id="withdraw-heading" className="flex items-center gap-2 font-semibold">
        <ArrowUpRight aria-hidden="true" className="size-4 rtl:-scale-x-100" />{" "}
        {t("wallet.profile.withdrawTitle")}
      </h3>
      <Field
        label={t("wallet.profile.to")}
        name="to"
        value={to}
        onChange={(e) => setTo(e.target.value)}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="0x…"
        dir="ltr"
        error={errors.to}
        hint={t("wallet.profile.toHint", { network: "Base" })}
      />
      <div className="flex flex-col gap-2">
        <Label htmlFor="withdraw-amount">{t("wallet.profile.amount", { symbol: wallet.symbol })}</Label>
        <div className="flex gap-2">
          <Input
            id="withdraw-amount"
            name="amount"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            inputMode="decimal"
            autoComplete="off"
            placeholder="0.0"
            dir="ltr"
            aria-invalid={errors.amount ? true : undefined}
            aria-describedby={errors.amount ? "withdraw-amount-error" : "withdraw-amount-hint"}
            className="flex-1"
          />
          <Button
            type="button"
            variant="outline"
            className="h-11 shrink-0"
            disabled={max <= 0n}
            onClick={() => setAmount(formatUnits(max, DECIMALS))}
          >
            {t("wallet.profile.max")}
          </Button>
        </div>
        <p id="withdraw-amount-hint" className="text-muted-foreground text-sm">
          {t("wallet.profile.amountHint", {
            amount: formatTokenAmount(formatUnits(max, DECIMALS), locale),
            symbol: wallet.symbol,
          })}
        </p>
        {errors.amount ? (
          <p id="withdraw-amount-error" className="font-medium text-destructive text-sm" role="alert">
            {errors.amount}
          </p>
        ) : null}
      </div>
      <Button type="submit" className="h-11" disabled={withdraw.isPending}>
        <Send aria-hidden="true" />
        {withdraw.isPending ? t("wallet.checkout.sending") : t("wallet.profile.withdraw")}
      </Button>
      {needsSignIn ? (
        <SignInAgain draft={{ to, amount, key: attempt.current?.key ?? null }} />
      ) : withdraw.isError ? (
        <p role="alert" className="font-medium text-destructive text-sm" data-testid="withdraw-error">
          {inWords(withdraw.error)}
        </p>
      ) : null}
    </form>
  );
}

/** The recent-sign-in step: the server asks for a sign-in within 15 minutes before money leaves the wallet. */
function SignInAgain({ draft }: { draft: Draft }) {
  const t = useT();
  const accounts = useQuery(socialAccountsQueryOptions());
  const providers: SocialProvider[] = accounts.data?.accounts.map((a) => a.provider) ?? [];
  const again = (provider: SocialProvider) => {
    writeDraft(draft);
    markRealLoginPending(provider);
    window.location.assign(realLoginUrl(provider, "/profile"));
  };
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-lg border border-warning/60 bg-warning/10 p-4 text-sm"
      data-testid="withdraw-sign-in-again"
    >
      <p>{t("wallet.profile.signInAgainText", { minutes: 15 })}</p>
      {accounts.isPending ? (
        <Spinner size="sm" label={t("wallet.profile.signInLoading")} />
      ) : providers.length ? (
        <div className="flex flex-wrap gap-2">
          {providers.map((provider) => (
            <Button key={provider} type="button" className="h-11" onClick={() => again(provider)}>
              <LogIn aria-hidden="true" />
              {t("wallet.profile.signInAgainWith", { provider: SOCIAL_PROVIDER_NAMES[provider] })}
            </Button>
          ))}
        </div>
      ) : (
        <p>{t("wallet.profile.signInAgainNone")}</p>
      )}
    </div>
  );
}

function SendsList() {
  const t = useT();
  const locale = useLocale();
  const sends = useInfiniteQuery(walletSendsQueryOptions());
  const items = sends.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby="sends-heading" className="flex flex-col gap-3 border-border border-t pt-4">
      <h3 id="sends-heading" className="font-semibold">
        {t("wallet.sends.title")}
      </h3>
      {sends.isPending ? (
        <Spinner label={t("wallet.sends.loading")} />
      ) : sends.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {t("wallet.sends.loadFailed", { reason: inWords(sends.error) })}
        </p>
      ) : items.length === 0 ? (
        <p className="text-muted-foreground text-sm">{t("wallet.sends.none")}</p>
      ) : (
        <ul
          className="flex flex-col divide-y divide-border rounded-lg border border-border"
          data-testid="wallet-sends"
        >
          {items.map((send) => (
            <li key={send.id} className="flex flex-col gap-1 p-3 text-sm" data-testid="wallet-send">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="font-medium">
                  {send.kind === "withdraw" ? t("wallet.sends.withdrawal") : t("wallet.sends.payment")}{" "}
                  <span className="tabular-nums" dir="ltr">
                    {formatTokenAmount(send.amount, locale)} CPXTB
                  </span>
                </span>
                <span
                  className={`inline-flex items-center gap-1 ${
                    send.status === "failed"
                      ? "text-destructive"
                      : send.status === "confirmed"
                        ? "font-medium text-success"
                        : "text-muted-foreground"
                  }`}
                  data-testid="wallet-send-state"
                >
                  {send.status === "confirmed" ? <CircleCheck aria-hidden="true" className="size-4" /> : null}
                  {t("wallet.sends.state", { state: send.status satisfies WalletSendItem["status"] })}
                </span>
              </div>
              <p className="text-muted-foreground">
                <Rich
                  id="wallet.sends.when"
                  values={{
                    date: formatDateTime(send.createdAt, locale),
                    to: (
                      <span className="font-mono" dir="ltr" title={send.to}>
                        {shortAddress(send.to)}
                      </span>
                    ),
                  }}
                />
                {send.paymentReference ? (
                  <>
                    {" · "}
                    <a className="underline underline-offset-2" href={`/pay/${send.paymentReference}`}>
                      {t("wallet.sends.thePayment")}
                    </a>
                  </>
                ) : null}
              </p>
              {send.txUrl ? (
                <a
                  href={send.txUrl}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-1 self-start underline underline-offset-2"
                >
                  {t("wallet.sends.viewTx")} <ExternalLink aria-hidden="true" className="size-3.5" />
                </a>
              ) : send.txHash ? (
                <p className="break-all font-mono text-muted-foreground text-xs" data-testid="wallet-send-tx">
                  {t("wallet.sends.tx", { txHash: send.txHash })}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {sends.hasNextPage ? (
        <Button
          type="button"
          variant="outline"
          className="h-11 self-start"
          disabled={sends.isFetchingNextPage}
          onClick={() => void sends.fetchNextPage()}
        >
          {sends.isFetchingNextPage ? t("wallet.sends.loadingMore") : t("wallet.sends.older")}
        </Button>
      ) : null}
    </section>
  );
}
