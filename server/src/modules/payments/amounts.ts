import { formatUnits } from "viem";
import { AppError } from "../../errors.ts";

/** Tags are 1..999 micro-tokens; the amount before its tag is rounded up to 3 decimals (see PAYMENTS.md). */
export const MAX_TAG = 999;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

export function assertTaggableDecimals(decimals: number) {
  if (decimals < 6) {
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      `The token has ${decimals} decimals; payments need at least 6.`,
    );
  }
}

/** `ceil(cents * 10^decimals * 10^18 / (priceE18 * 100))`: never less than the price asks. */
export function usdCentsToBaseUnits(cents: bigint, priceE18: bigint, decimals: number): bigint {
  if (priceE18 <= 0n)
    throw new AppError("SERVICE_UNAVAILABLE", "The CPXTB price is not usable.", { reason: "price_unusable" });
  return ceilDiv(cents * pow10(decimals) * pow10(18), priceE18 * 100n);
}

/** Rounds base units up to a multiple of 0.001 token. */
export function roundUpTo3Decimals(base: bigint, decimals: number): bigint {
  const step = pow10(decimals - 3);
  return ceilDiv(base, step) * step;
}

export function tagUnit(decimals: number): bigint {
  return pow10(decimals - 6);
}

export function withTag(baseAmount: bigint, tag: number, decimals: number): bigint {
  if (!Number.isInteger(tag) || tag < 1 || tag > MAX_TAG) throw new Error(`tag out of range: ${tag}`);
  return baseAmount + BigInt(tag) * tagUnit(decimals);
}

/** "12.34" -> 1234n (the schema already allows at most 2 decimals). */
export function parseUsdCents(amount: string): bigint {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, "0"));
}

/** "100.5" -> base units (the schema allows at most 3 decimals, so this is exact). */
export function parseTokenAmount(amount: string, decimals: number): bigint {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole!) * pow10(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
}

export function formatCents(cents: bigint): string {
  const whole = cents / 100n;
  const rest = (cents % 100n).toString().padStart(2, "0");
  return `${whole}.${rest}`;
}

export function formatTokens(base: bigint, decimals: number): string {
  return formatUnits(base, decimals);
}

/** EIP-681 token transfer: `ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<base units>`. */
export function paymentUri(input: { token: string; chainId: number; to: string; amount: bigint }): string {
  return `ethereum:${input.token}@${input.chainId}/transfer?address=${input.to}&uint256=${input.amount.toString()}`;
}

/** Basis-point tolerance, floored: the merchant never loses more than it accepted. */
export function toleranceOf(due: bigint, bps: number): bigint {
  return (due * BigInt(bps)) / 10_000n;
}
