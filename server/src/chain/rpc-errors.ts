import { BaseError, TimeoutError } from "viem";
import { AppError } from "../errors.ts";

/**
 * Turns a failed chain read into the API's error: 504 when the node was too slow, 502 for anything else it did
 * wrong (unreachable, HTTP error, JSON-RPC error, undecodable answer). The message never carries the RPC URL,
 * which may embed an API key.
 */
export function toChainError(error: unknown, what: string): AppError {
  if (error instanceof AppError) return error;
  const timedOut =
    error instanceof BaseError
      ? Boolean(error.walk((e) => e instanceof TimeoutError))
      : isAbortTimeout(error);
  const appError = timedOut
    ? new AppError("GATEWAY_TIMEOUT", `The blockchain node did not answer in time while reading ${what}.`)
    : new AppError("BAD_GATEWAY", `The blockchain node could not be used to read ${what}. Please try again.`);
  // Enumerable, so the request log shows the cause; it holds no URL (RPC URLs may embed API keys).
  return Object.assign(appError, { rpc: describeRpcFailure(error) });
}

function isAbortTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** A log-safe description of an RPC failure (no URLs, no request bodies). */
export function describeRpcFailure(error: unknown): { name: string; reason: string } {
  if (error instanceof BaseError) {
    const inner = error.walk() as Error & { shortMessage?: string };
    return { name: inner.name, reason: inner.shortMessage ?? error.shortMessage };
  }
  return { name: error instanceof Error ? error.name : "Error", reason: "non-viem error" };
}
