import type { BuyAmountInput } from "@common/buy.ts";
import { formatUnits, parseUnits } from "viem";
import { AppError } from "../../errors.ts";

/** ETH amounts are rounded up to 10^10 wei (8 decimals): typeable, and never below the price. */
const ETH_STEP_WEI = 10n ** 10n;
const E18 = 10n ** 18n;

export type Quote = {
  usdCents: bigint;
  tokenAmount: bigint;
  priceE18: bigint;
  ethUsdE18: bigint | null;
  ethAmountWei: bigint | null;
};

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * A quote in integers: USD -> tokens floors (the buyer never gets more than paid for), tokens -> USD rounds up
 * to the cent, USD -> ETH rounds up to 8 decimals.
 */
export function computeQuote(
  input: BuyAmountInput,
  p: { priceE18: bigint; ethUsdE18: bigint | null; decimals: number },
): Quote {
  const unit = 10n ** BigInt(p.decimals);
  let usdCents: bigint;
  let tokenAmount: bigint;
  if (input.usd !== undefined) {
    usdCents = parseUnits(input.usd, 2);
    tokenAmount = (usdCents * unit * E18) / (p.priceE18 * 100n);
  } else {
    tokenAmount = parseUnits(input.tokens!, p.decimals);
    usdCents = ceilDiv(tokenAmount * p.priceE18 * 100n, unit * E18);
  }
  if (tokenAmount <= 0n)
    throw new AppError("VALIDATION_ERROR", "The amount is too small to buy any CPXTB.", {
      reason: "amount_too_small",
    });
  let ethAmountWei: bigint | null = null;
  if (p.ethUsdE18 !== null) {
    const wei = ceilDiv(usdCents * E18 * E18, p.ethUsdE18 * 100n);
    ethAmountWei = ceilDiv(wei, ETH_STEP_WEI) * ETH_STEP_WEI;
  }
  return { usdCents, tokenAmount, priceE18: p.priceE18, ethUsdE18: p.ethUsdE18, ethAmountWei };
}

export function checkLimits(usdCents: bigint, limits: { minUsd: string; maxUsd: string }) {
  const min = parseUnits(limits.minUsd, 2);
  const max = parseUnits(limits.maxUsd, 2);
  // The limit travels in `details` too, so the buyer's screen says it in its own words (issue 37).
  if (usdCents < min)
    throw new AppError("VALIDATION_ERROR", `The minimum order is $${limits.minUsd}; increase the amount.`, {
      reason: "below_minimum",
      minUsd: limits.minUsd,
    });
  if (usdCents > max)
    throw new AppError("VALIDATION_ERROR", `The maximum order is $${limits.maxUsd}; reduce the amount.`, {
      reason: "above_maximum",
      maxUsd: limits.maxUsd,
    });
}

export const formatUsd = (cents: bigint) => formatUnits(cents, 2);
export const formatEth = (wei: bigint) => formatUnits(wei, 18);
