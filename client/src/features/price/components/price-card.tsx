import { TrendingUp } from "lucide-react";
import { formatUtcDateTime, groupThousands } from "@/lib/format";
import { usePrice } from "../api/get-price";

/** USD per token from its exact decimal string: cents for prices over $1, otherwise up to 6 decimals. */
export function formatUsdPrice(usdPerToken: string): string {
  const [whole = "0", fraction = ""] = usdPerToken.split(".");
  const digits = Number(whole) >= 1 ? 2 : Math.max(2, Math.min(6, fraction.replace(/0+$/, "").length));
  const padded = `${fraction}000000`.slice(0, digits);
  return `$${groupThousands(whole)}.${padded}`;
}

function formatAge(iso: string): string {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}

/** The live CPXTB price with its time and source; a calm placeholder while it loads or when it cannot. */
export function PriceCard() {
  const price = usePrice();
  // At least as tall as the card with its price (two lines, padding, border): the price arriving after the page
  // has painted moves nothing below it (layout shift).
  return (
    <div
      className="inline-flex min-h-[3.875rem] w-fit items-center gap-3 rounded-xl border border-border bg-card/80 px-4 py-2.5 backdrop-blur"
      data-testid="price-card"
    >
      <TrendingUp className="size-5 shrink-0 text-primary" aria-hidden="true" />
      {price.status === "pending" ? (
        <span className="text-muted-foreground text-sm">Loading the CPXTB price…</span>
      ) : price.status === "error" ? (
        <span className="text-muted-foreground text-sm">The CPXTB price is unavailable right now.</span>
      ) : (
        <div className="flex flex-col">
          <span className="font-semibold tabular-nums">
            1 CPXTB = <span data-testid="price-value">{formatUsdPrice(price.data.usdPerToken)}</span>
          </span>
          <span className="text-muted-foreground text-xs" title={formatUtcDateTime(price.data.updatedAt)}>
            {price.data.stale ? "Price is out of date · " : ""}
            {price.data.source === "fixed" ? "Fixed price" : "From the liquidity pool"} · updated{" "}
            {formatAge(price.data.updatedAt)}
          </span>
        </div>
      )}
    </div>
  );
}
