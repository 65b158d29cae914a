import type { PublicPayment } from "@common/payments";
import type { ManagedWalletResponse, WalletSendResponse } from "@common/social";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Gift, Info, ShieldCheck, ShoppingCart, TriangleAlert, Wallet } from "lucide-react";
import * as React from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { claimStatusQueryOptions, claimTokens } from "@/features/claim/api/claims-api";
import { CopyButton } from "@/features/payments/components/copy-button";
import { baseToDecimal } from "@/features/payments/components/pay-view";
import { QrCode } from "@/features/payments/components/qr-code";
import { useCopyWords } from "@/features/payments/copy-words";
import { formatExactTokenAmount, formatTokenAmount, plainTokenAmount } from "@/features/payments/format";
import { payerNetworkName } from "@/features/payments/network-words";
import { claimDevice } from "@/features/wallet/wallet-storage";
import { useLocale, useT } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-client";
import { MANAGED_WALLET_QUERY_KEY, managedWalletQueryOptions, payFromManagedWallet } from "../api/social";
import { walletErrorText } from "../wallet-error-text";

/** While the wallet holds too little, its balance is asked again this often: Pay turns on when funds arrive. */
const POLL_MS = 4000;
const PAYABLE = new Set(["pending", "partial"]);

/** "12.5" whole tokens -> base units, exactly (never through a float). */
export function decimalToBase(text: string, decimals: number): bigint {
  const [whole = "0", fraction = ""] = text.trim().split(".");
  return (
    BigInt(whole || "0") * 10n ** BigInt(decimals) +
    BigInt(fraction.padEnd(decimals, "0").slice(0, decimals) || "0")
  );
}

/** What stands between this wallet and paying `due` (base units) now, or null when it can pay. */
export function payBlocker(
  wallet: Pick<ManagedWalletResponse, "balance" | "dailyLimit" | "spentToday">,
  due: bigint,
  decimals: number,
): { kind: "funds" | "limit"; amount: bigint } | null {
  const balance = decimalToBase(wallet.balance, decimals);
  if (balance < due) return { kind: "funds", amount: due - balance };
  const left = decimalToBase(wallet.dailyLimit, decimals) - decimalToBase(wallet.spentToday, decimals);
  if (left < due) return { kind: "limit", amount: left > 0n ? left : 0n };
  return null;
}

type InFlight = { status: string; txHash: string | null };
function inFlightSend(error: unknown): InFlight | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const details = (error.body as { error?: { details?: { reason?: string; send?: InFlight } } } | undefined)
    ?.error?.details;
  return details?.reason === "payment_in_flight"
    ? (details.send ?? { status: "broadcast", txHash: null })
    : null;
}

/**
 * The pay page's card for a signed-in account's managed wallet (custodial: the platform holds its key). It shows
 * the full address to receive at, the balance from the chain, what is missing for this payment and how to add it,
 * and one Pay button, disabled with its reason until the balance suffices. While funds are missing the balance is
 * asked again every few seconds, so Pay turns on by itself. "Paid" comes from the chain, as for any payer.
 */
export default function ManagedWalletCheckout({
  payment,
  remainingText,
}: {
  payment: PublicPayment;
  remainingText: string;
}) {
  const queryClient = useQueryClient();
  const t = useT();
  const locale = useLocale();
  const copyWords = useCopyWords();
  const decimals = payment.token.decimals;
  const due = BigInt(payment.amountToPayBase);
  const payable = PAYABLE.has(payment.status);
  const wallet = useQuery({
    ...managedWalletQueryOptions(),
    refetchInterval: (query) =>
      payable && query.state.data && payBlocker(query.state.data, due, decimals) ? POLL_MS : false,
  });
  const w = wallet.data;
  const blocker = w ? payBlocker(w, due, decimals) : null;

  // One key per payment attempt on this page: a double click or a retry never pays twice.
  const key = React.useRef(`pay-${randomHex(16)}`);
  const pay = useMutation<WalletSendResponse, unknown>({
    mutationFn: () => payFromManagedWallet({ reference: payment.reference, idempotencyKey: key.current }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: MANAGED_WALLET_QUERY_KEY }),
  });
  if (!w) return null;
  const symbol = w.symbol;
  const missingText = blocker ? plainTokenAmount(baseToDecimal(blocker.amount, decimals)) : null;
  const returnTo = `${window.location.pathname}${window.location.search}`;
  const inFlight = pay.isError ? inFlightSend(pay.error) : null;
  const sent = pay.isSuccess || inFlight !== null;

  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-border p-3 text-sm"
      aria-labelledby="managed-wallet-title"
      data-testid="managed-wallet"
    >
      <h2 id="managed-wallet-title" className="flex items-center gap-2 font-semibold text-base">
        <Wallet aria-hidden="true" className="size-5" /> {t("wallet.checkout.title")}
      </h2>
      <p className="text-muted-foreground text-xs">
        {t("wallet.checkout.held", { limit: formatTokenAmount(w.dailyLimit, locale), symbol })}
      </p>
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-muted-foreground">
            {t("wallet.checkout.address", { network: payerNetworkName(t, payment.chainId) })}
          </p>
          <div className="flex items-center justify-between gap-2">
            <span className="min-w-0 break-all font-mono text-xs" dir="ltr" data-testid="managed-address">
              {w.address}
            </span>
            <CopyButton
              value={w.address}
              label={t("wallet.checkout.addressLabel")}
              copiedText={t("wallet.checkout.addressCopied")}
              words={copyWords}
            />
          </div>
        </div>
        {/* The address as a QR code, for a wallet or exchange app on another device (the encoder loads lazily). */}
        <div data-testid="managed-qr" className="shrink-0">
          <QrCode
            value={w.address}
            label={t("wallet.checkout.addressQr", { address: w.address })}
            className="size-24 border border-border p-1 sm:size-28"
          />
        </div>
      </div>
      <dl className="flex items-baseline justify-between gap-2">
        <dt className="text-muted-foreground">{t("wallet.checkout.balance")}</dt>
        <dd className="flex items-center gap-2 tabular-nums">
          {wallet.isFetching && blocker ? (
            <Spinner size="sm" label={t("wallet.checkout.checkingBalance")} />
          ) : null}
          <span dir="ltr" data-testid="managed-balance">
            {formatTokenAmount(w.balance, locale)} {symbol}
          </span>
        </dd>
      </dl>
      {payable && blocker?.kind === "funds" && !sent ? (
        <div className="flex flex-col gap-2 rounded-md bg-warning/15 p-3" data-testid="managed-missing">
          <p className="font-semibold">
            {t("wallet.checkout.missing", {
              amount: formatExactTokenAmount(missingText ?? "0", locale),
              symbol,
            })}
          </p>
          <p className="text-muted-foreground">{t("wallet.checkout.howToFund")}</p>
          <Button asChild variant="outline" className="h-11 self-start">
            <Link
              href={`/buy-cpxtb?to=managed&return=${encodeURIComponent(returnTo)}&tokens=${missingText}`}
              data-testid="managed-buy"
            >
              <ShoppingCart aria-hidden="true" />{" "}
              {t("wallet.checkout.buy", {
                amount: formatExactTokenAmount(missingText ?? "0", locale),
                symbol,
              })}
            </Link>
          </Button>
          <p className="text-muted-foreground text-xs" data-testid="managed-buy-note">
            {t("wallet.checkout.boughtNote")}
          </p>
          <ClaimTestTokens address={w.address} />
        </div>
      ) : null}
      {payable && blocker?.kind === "limit" && !sent ? (
        <p className="flex gap-2 rounded-md bg-warning/15 p-3" data-testid="managed-limit">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t("wallet.checkout.overLimit", {
            amount: formatTokenAmount(baseToDecimal(blocker.amount, decimals), locale),
            symbol,
          })}
        </p>
      ) : null}
      {payable ? (
        <Button
          size="lg"
          className="h-auto min-h-11 w-full whitespace-normal py-2"
          disabled={blocker !== null || pay.isPending || sent}
          onClick={() => pay.mutate()}
          data-testid="managed-pay"
          aria-describedby={blocker ? "managed-pay-reason" : undefined}
        >
          {pay.isPending ? <Spinner size="sm" /> : <ShieldCheck aria-hidden="true" />}
          {pay.isPending
            ? t("wallet.checkout.sending")
            : sent
              ? t("wallet.checkout.sent")
              : t("wallet.checkout.pay", { amount: formatTokenAmount(remainingText, locale), symbol })}
        </Button>
      ) : null}
      {payable && blocker && !sent ? (
        <p id="managed-pay-reason" className="text-center text-muted-foreground text-xs">
          {blocker.kind === "funds"
            ? t("wallet.checkout.payTurnsOn", { amount: formatTokenAmount(remainingText, locale), symbol })
            : t("wallet.checkout.payOffLimit")}
        </p>
      ) : null}
      {pay.isSuccess ? (
        <p role="status" className="break-all text-muted-foreground">
          {pay.data.txHash
            ? t("wallet.checkout.sentTx", { txHash: pay.data.txHash })
            : t("wallet.checkout.sentTxPending")}
        </p>
      ) : null}
      {inFlight ? (
        <p role="status" className="flex gap-2" data-testid="managed-in-flight">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span className="break-all">
            {inFlight.txHash
              ? t("wallet.checkout.inFlightTx", { state: inFlight.status, txHash: inFlight.txHash })
              : t("wallet.checkout.inFlight", { state: inFlight.status })}
          </span>
        </p>
      ) : pay.isError ? (
        <p role="alert" className="flex gap-2 text-destructive-emphasis" data-testid="managed-pay-error">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {walletErrorText(pay.error)}
        </p>
      ) : null}
    </section>
  );
}

/** "Claim Test CPXTB Tokens" for the managed wallet, where the server offers claims (nothing otherwise). */
function ClaimTestTokens({ address }: { address: string }) {
  const t = useT();
  const locale = useLocale();
  const who = React.useMemo(
    () => ({ walletAddress: address, deviceId: claimDevice.deviceIdFor(address) }),
    [address],
  );
  // While the treasury sends the claim, it is followed until confirmed (the balance poll sees the tokens).
  const status = useQuery({
    ...claimStatusQueryOptions(who),
    refetchInterval: (query) =>
      query.state.data?.lastClaim && ["queued", "signed"].includes(query.state.data.lastClaim.status)
        ? 2000
        : false,
  });
  const claim = useMutation({
    mutationFn: () => claimTokens(who),
    onSuccess: (next) => {
      if (next.lastClaim) claimDevice.rememberClaim(address, next.lastClaim.createdAt);
    },
  });
  const s = status.data;
  if (!s?.enabled) return null;
  const sending = s.lastClaim && ["queued", "signed"].includes(s.lastClaim.status);
  const waiting = s.nextClaimAt !== null && new Date(s.nextClaimAt).getTime() > Date.now();
  return (
    <div className="flex flex-col gap-1" data-testid="managed-claim">
      {sending ? (
        <p role="status" className="flex items-center gap-2">
          <Spinner size="sm" label={t("wallet.claim.sendingLabel")} />{" "}
          {t("wallet.claim.sending", { amount: s.lastClaim!.amount })}
        </p>
      ) : waiting ? (
        <p className="text-muted-foreground text-xs">
          {t("wallet.claim.again", { date: new Date(s.nextClaimAt!).toLocaleString(locale) })}
        </p>
      ) : (
        <Button
          variant="outline"
          className="h-11 self-start"
          disabled={claim.isPending}
          onClick={() => claim.mutate()}
        >
          {claim.isPending ? <Spinner size="sm" /> : <Gift aria-hidden="true" />}
          {t("wallet.claim.claim", { amount: s.amount })}
        </Button>
      )}
      {claim.isError ? (
        <p role="alert" className="text-destructive-emphasis text-xs">
          {walletErrorText(claim.error)}
        </p>
      ) : null}
    </div>
  );
}

/** getRandomValues works on plain http too (randomUUID needs a secure context). */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
}
