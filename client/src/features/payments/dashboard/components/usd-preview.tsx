import type { PriceResponse } from "@common/price";
import { useQuery } from "@tanstack/react-query";
import { useLocale, useT } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";
import { formatTokenAmount } from "../../format";

/** A USD amount as whole cents, or null for anything the create request would refuse. */
export function usdCents(amount: string): bigint | null {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) return null;
  const cents = BigInt(match[1]!) * 100n + BigInt((match[2] ?? "").padEnd(2, "0"));
  return cents > 0n ? cents : null;
}

/**
 * CPXTB for `cents` at `priceE18` (USD per whole token, scaled by 10^18), rounded up to 0.001 token as the
 * server rounds when it creates the payment (before its identifying millionths are added).
 */
export function previewTokens(cents: bigint, priceE18: bigint): string {
  const milli = (cents * 10n ** 19n + priceE18 - 1n) / priceE18;
  return `${milli / 1000n}.${(milli % 1000n).toString().padStart(3, "0")}`;
}

/**
 * What a USD amount comes to in CPXTB at the server's current price (GET /api/price, asked again every 30 s while
 * shown). Only a preview: creating the payment locks the rate of that moment.
 */
export function UsdPreview({ amount }: { amount: string }) {
  const cents = usdCents(amount);
  const t = useT();
  const locale = useLocale();
  // Asked for once an amount is typed: opening the dashboard does not cost a price read.
  const price = useQuery<PriceResponse>({
    queryKey: ["/api/price"],
    refetchInterval: 30_000,
    enabled: cents !== null,
  });
  if (cents === null) return null;
  if (price.isPending) return <p className="text-muted-foreground text-sm">{t("merchant.usd.reading")}</p>;
  if (price.isError || price.data.stale) {
    return (
      <p className="text-muted-foreground text-sm" data-testid="usd-preview">
        {t("merchant.usd.unavailable")}
      </p>
    );
  }
  const tokens = previewTokens(cents, BigInt(price.data.priceE18));
  return (
    <p className="text-sm tabular-nums" data-testid="usd-preview" aria-live="polite">
      ≈{" "}
      <bdi dir="ltr" className="font-semibold">
        {formatTokenAmount(tokens, locale)} CPXTB
      </bdi>{" "}
      <span className="text-muted-foreground">
        {t(price.data.source === "fixed" ? "merchant.usd.rateFixed" : "merchant.usd.ratePool", {
          rate: isolate(`${formatTokenAmount(price.data.usdPerToken, locale, 18)} USD`, locale),
        })}
      </span>
    </p>
  );
}
