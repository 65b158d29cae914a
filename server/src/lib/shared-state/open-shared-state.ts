import { FailoverSharedState } from "./failover-shared-state.ts";
import { MemorySharedState } from "./memory-shared-state.ts";
import type { SharedState } from "./shared-state.ts";

const quiet = { warn: () => {}, info: () => {} };

/**
 * Redis when a URL is given (several instances share it), the in-process implementation otherwise. Redis must
 * answer at boot (a wrong REDIS_URL fails fast); later outages are ridden out by FailoverSharedState.
 */
export async function openSharedState(options: {
  redisUrl?: string;
  keyPrefix: string;
  /** Deadline of one Redis call (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs?: number;
  log?: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
}): Promise<SharedState> {
  if (!options.redisUrl) return new MemorySharedState();
  const commandTimeoutMs = options.commandTimeoutMs ?? 50;
  // Loaded only here: an instance without Redis never parses its client.
  const { RedisSharedState } = await import("./redis-shared-state.ts");
  const redis = new RedisSharedState({
    url: options.redisUrl,
    keyPrefix: options.keyPrefix,
    commandTimeoutMs: Math.max(1000, commandTimeoutMs * 10),
  });
  try {
    await redis.connect();
  } catch (error) {
    await redis.close();
    throw new Error(`Redis at REDIS_URL is not reachable: ${error instanceof Error ? error.message : error}`);
  }
  return new FailoverSharedState(redis, new MemorySharedState(), {
    commandTimeoutMs,
    log: options.log ?? quiet,
  });
}
