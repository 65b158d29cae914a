import { MemorySharedState } from "./memory-shared-state.ts";
import { RedisSharedState } from "./redis-shared-state.ts";
import type { SharedState } from "./shared-state.ts";

/** Redis when a URL is given (several instances share it), the in-process implementation otherwise. */
export async function openSharedState(options: {
  redisUrl?: string;
  keyPrefix: string;
}): Promise<SharedState> {
  if (!options.redisUrl) return new MemorySharedState();
  const state = new RedisSharedState({ url: options.redisUrl, keyPrefix: options.keyPrefix });
  try {
    await state.connect();
  } catch (error) {
    await state.close();
    throw new Error(`Redis at REDIS_URL is not reachable: ${error instanceof Error ? error.message : error}`);
  }
  return state;
}
