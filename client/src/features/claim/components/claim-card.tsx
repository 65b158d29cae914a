import type { ClaimStatus } from "@common/claims";
import { CircleCheck, Clock, ExternalLink, Gift, TriangleAlert } from "lucide-react";
import * as React from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { apiErrorText, detailOf, errorBodyOf } from "@/features/payments/pay-error-text";
import { Rich, t as translate, useLocale, useT } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-client";
import { claimTokens, useClaimStatus } from "../api/claims-api";
import { when } from "../claim-time";

/** A wallet claims can go to; `label` names it in the reader's language, `kind` picks the sentence about it. */
export type ClaimWallet = { address: string; label: string; kind?: "browser" | "managed" };

/** Per-wallet device storage (spec section 3), supplied by the app layer from the wallet feature. */
export type ClaimDevice = {
  deviceIdFor: (address: string) => string;
  rememberClaim: (address: string, at: string) => void;
};

const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

/** A shortened address, kept left to right inside a right-to-left sentence. */
function Short({ address }: { address: string }) {
  return (
    <bdi dir="ltr" className="font-mono" title={address}>
      {short(address)}
    </bdi>
  );
}

/** The reader's time: the browser's own format in English (as before), the page's language otherwise. */
function useWhen() {
  const locale = useLocale();
  return (iso: string) => when(iso, locale === "en" ? undefined : locale);
}

/** The claim's fixed sentences (server/src/modules/claims/service.ts) the card has words for. */
const CLAIM_SENTENCES: Record<string, string> = {
  "Claiming test CPXTB is switched off on this server; you can claim again once the operator switches it back on.":
    "buy.claim.switchedOff",
};

/**
 * A refused claim in the reader's words (`apiErrorText`): a cooldown, the day's budget or a wallet not the account's
 * by its `details.reason`,
 * the next claim time apart (`details.nextClaimAt`), which the card states once, in the reader's time and format.
 */
function refusal(error: unknown): { message: string; nextClaimAt: string | null } {
  const details = isApiError(error) ? errorBodyOf(error.body).details : undefined;
  const message = apiErrorText(error, {
    sentences: CLAIM_SENTENCES,
    byCode: ({ details }) =>
      details?.reason === "cooldown"
        ? translate("buy.claim.alreadyClaimed")
        : details?.reason === "budget_used"
          ? translate("buy.claim.budgetUsed")
          : // The wallet is not one of the account's: what the card says when the account has none.
            details?.reason === "wallet_not_linked"
            ? translate("buy.claim.noWallet")
            : undefined,
  });
  return { message, nextClaimAt: detailOf(details, "nextClaimAt") ?? null };
}

function Shell({ children, description }: { children: React.ReactNode; description?: React.ReactNode }) {
  const t = useT();
  return (
    <Card data-testid="claim-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Gift aria-hidden="true" className="size-5" /> {t("buy.claim.title")}
        </CardTitle>
        <CardDescription>{description ?? t("buy.claim.description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">{children}</CardContent>
    </Card>
  );
}

/** "Claim Test CPXTB Tokens": for a signed-in user with a wallet (linked browser wallet or managed wallet). */
export function ClaimCard({
  signedIn,
  wallets,
  device,
}: {
  signedIn: boolean;
  wallets: ClaimWallet[] | null;
  device: ClaimDevice;
}) {
  const t = useT();
  const [chosen, setChosen] = React.useState<string | null>(null);
  if (!signedIn) {
    return (
      <Shell>
        <p className="text-sm">{t("buy.claim.signInPrompt")}</p>
        <Button asChild variant="outline">
          <Link href="/auth">{t("buy.claim.signIn")}</Link>
        </Button>
      </Shell>
    );
  }
  if (wallets === null) {
    return (
      <Shell>
        <Spinner label={t("buy.claim.loadingWallets")} />
      </Shell>
    );
  }
  if (wallets.length === 0) {
    return (
      <Shell>
        <p className="text-sm">{t("buy.claim.noWallet")}</p>
        <Button asChild variant="outline">
          <Link href="/profile">{t("buy.claim.linkWallet")}</Link>
        </Button>
      </Shell>
    );
  }
  const address = wallets.find((w) => w.address === chosen)?.address ?? wallets[0]!.address;
  const only = wallets[0]!;
  return (
    <Shell>
      {wallets.length > 1 ? (
        <label className="flex flex-col gap-1.5 text-sm">
          <span className="font-medium">{t("buy.claim.wallet")}</span>
          <select
            className="h-11 min-w-0 rounded-md border border-input bg-background px-3 text-sm"
            value={address}
            onChange={(e) => setChosen(e.target.value)}
          >
            {wallets.map((w) => (
              <option key={w.address} value={w.address}>
                {w.label}: {short(w.address)}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p className="text-sm">
          <Rich
            id={only.kind === "managed" ? "buy.claim.toManagedWallet" : "buy.claim.toBrowserWallet"}
            values={{ address: <Short address={address} /> }}
          />
        </p>
      )}
      <ClaimForWallet key={address} address={address} device={device} />
    </Shell>
  );
}

function ClaimForWallet({ address, device }: { address: string; device: ClaimDevice }) {
  const who = React.useMemo(
    () => ({ walletAddress: address, deviceId: device.deviceIdFor(address) }),
    [address, device],
  );
  const t = useT();
  const at = useWhen();
  const status = useClaimStatus(who);
  const [busy, setBusy] = React.useState(false);
  const [problem, setProblem] = React.useState<{ message: string; nextClaimAt: string | null } | null>(null);
  const [justClaimed, setJustClaimed] = React.useState(false);
  const pending = status.data?.lastClaim && ["queued", "signed"].includes(status.data.lastClaim.status);
  const { refetch } = status;

  // While the treasury sends the claim, follow it until it is confirmed (then the link is final).
  React.useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => void refetch(), 2000);
    return () => clearInterval(timer);
  }, [pending, refetch]);

  // The next time a claim can succeed: this wallet's cooldown, or a refusal's (the day's budget used up).
  const nextAt = [status.data?.nextClaimAt, problem?.nextClaimAt]
    .filter((t): t is string => t != null && new Date(t).getTime() > Date.now())
    .sort()
    .at(-1);
  // The button turns back on by itself when the time comes.
  const [, wake] = React.useReducer((n: number) => n + 1, 0);
  React.useEffect(() => {
    if (!nextAt) return;
    const timer = setTimeout(wake, Math.min(new Date(nextAt).getTime() - Date.now() + 500, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [nextAt]);

  const claim = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const next = await claimTokens(who);
      if (next.lastClaim) device.rememberClaim(address, next.lastClaim.createdAt);
      setJustClaimed(true);
    } catch (error) {
      setProblem(refusal(error));
    } finally {
      setBusy(false);
    }
  };

  if (status.isPending) return <Spinner label={t("buy.claim.checking")} />;
  if (status.isError || !status.data) {
    return (
      <p role="alert" className="text-sm">
        {refusal(status.error).message}
      </p>
    );
  }
  const s: ClaimStatus = status.data;
  if (!s.enabled) {
    return (
      <div role="status" className="flex gap-2 rounded-md border border-warning/60 p-3 text-sm">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <p>{t("buy.claim.switchedOff")}</p>
      </div>
    );
  }
  const problemText = problem?.message ?? null;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm tabular-nums">
        <Rich
          id="buy.claim.amount"
          values={{
            amount: (
              <bdi dir="ltr" className="font-semibold">
                {s.amount} CPXTB
              </bdi>
            ),
          }}
        />
      </p>
      {s.lastClaim ? (
        <div className="flex flex-col gap-1 rounded-md bg-muted/50 p-3 text-sm" data-testid="claim-last">
          <p className="flex items-center gap-2 font-medium" aria-live="polite">
            {s.lastClaim.status === "confirmed" ? (
              <CircleCheck aria-hidden="true" className="size-4 text-success" />
            ) : (
              <Spinner size="sm" label={t("buy.claim.sendingLabel")} />
            )}
            {s.lastClaim.status === "confirmed"
              ? t("buy.claim.sent", { amount: s.lastClaim.amount })
              : s.lastClaim.status === "failed"
                ? t("buy.claim.failed")
                : t("buy.claim.sending", { amount: s.lastClaim.amount })}
          </p>
          <p className="text-muted-foreground">
            {t("buy.claim.claimedAt", { time: at(s.lastClaim.createdAt) })}
          </p>
          {s.lastClaim.txUrl ? (
            <a
              href={s.lastClaim.txUrl}
              target="_blank"
              rel="noreferrer"
              className="inline-flex items-center gap-1 underline"
            >
              {t("buy.claim.viewOnBasescan")} <ExternalLink aria-hidden="true" className="size-3.5" />
            </a>
          ) : s.lastClaim.txHash ? (
            <p className="break-all font-mono text-xs" data-testid="claim-tx">
              {t("buy.claim.transaction", { hash: s.lastClaim.txHash })}
            </p>
          ) : null}
        </div>
      ) : null}
      {problemText ? (
        <div role="alert" className="flex gap-2 rounded-md border border-destructive/50 p-3 text-sm">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive-emphasis" />
          <p>{problemText}</p>
        </div>
      ) : null}
      {nextAt ? (
        <p className="flex items-center gap-2 text-sm" data-testid="claim-next" id="claim-next">
          <Clock aria-hidden="true" className="size-4 shrink-0" />
          <span>{t("buy.claim.nextAt", { time: at(nextAt) })}</span>
        </p>
      ) : null}
      {justClaimed ? (
        <p className="text-sm" role="status">
          <Rich
            id="buy.claim.onTheWay"
            values={{ amount: <bdi dir="ltr">{s.amount}</bdi>, address: <Short address={address} /> }}
          />
        </p>
      ) : null}
      <Button
        size="lg"
        onClick={claim}
        disabled={busy || nextAt !== undefined}
        aria-describedby={nextAt ? "claim-next" : undefined}
        data-testid="claim-button"
      >
        {busy ? <Spinner size="sm" /> : <Gift aria-hidden="true" />}
        {busy ? t("buy.claim.claiming") : t("buy.claim.claim", { amount: s.amount })}
      </Button>
    </div>
  );
}
