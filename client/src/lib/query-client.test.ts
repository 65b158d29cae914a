import { QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createQueryClient,
  MEMORY_CLEAN_INTERVAL_MS,
  removeUnusedQueries,
  startMemoryClean,
} from "./query-client";

afterEach(() => {
  vi.useRealTimers();
});

describe("query client defaults (spec section 9)", () => {
  it("never retries, never goes stale, does not refetch on focus or poll, and caches for 24 h", () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.retry).toBe(false);
    expect(defaults.mutations?.retry).toBe(false);
    expect(defaults.queries?.staleTime).toBe(Number.POSITIVE_INFINITY);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.queries?.refetchInterval).toBe(false);
    expect(defaults.queries?.gcTime).toBe(24 * 60 * 60 * 1000);
  });
});

describe("memory clean", () => {
  it("removes only queries nobody observes", () => {
    const client = createQueryClient();
    client.setQueryData(["/api/unused"], 1);
    client.setQueryData(["/api/watched"], 2);
    const unsubscribe = new QueryObserver(client, { queryKey: ["/api/watched"], enabled: false }).subscribe(
      () => {},
    );

    expect(removeUnusedQueries(client)).toBe(1);
    expect(client.getQueryData(["/api/unused"])).toBeUndefined();
    expect(client.getQueryData(["/api/watched"])).toBe(2);
    unsubscribe();
  });

  it("runs every 5 minutes until stopped", () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const stop = startMemoryClean(client);
    client.setQueryData(["/api/a"], 1);
    vi.advanceTimersByTime(MEMORY_CLEAN_INTERVAL_MS - 1);
    expect(client.getQueryData(["/api/a"])).toBe(1);
    vi.advanceTimersByTime(1);
    expect(client.getQueryData(["/api/a"])).toBeUndefined();

    stop();
    client.setQueryData(["/api/b"], 1);
    vi.advanceTimersByTime(MEMORY_CLEAN_INTERVAL_MS * 2);
    expect(client.getQueryData(["/api/b"])).toBe(1);
    expect(MEMORY_CLEAN_INTERVAL_MS).toBe(300_000);
  });
});
