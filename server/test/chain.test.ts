import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, formatUnits, getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { startEmbeddedChain } from "../src/chain/embedded.ts";
import { poolPriceE18, scaleTo18 } from "../src/chain/price.ts";
import { ChainStartupError, connectChain } from "../src/chain/service.ts";
import { testConfig } from "../src/config.ts";
import {
  chainConfigFor,
  closedPortUrl,
  connectTestChain,
  createSwitchableChain,
  startRpcProxy,
  startTestChain,
  type TestChain,
  tokens,
} from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";

const randomAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

let chain: TestChain;
let app: App;
let switchable: ReturnType<typeof createSwitchableChain>;
/** Points the shared app at a new connection to the test chain. */
async function useChain(overrides: Parameters<typeof connectTestChain>[2] = {}) {
  const connected = await connectTestChain(chain.url, chain.deployment, overrides);
  switchable.use(connected);
  return connected;
}
beforeAll(async () => {
  chain = await startTestChain();
  const initial = await connectChain(chainConfigFor(chain.url, chain.deployment), {
    embeddedRpcUrl: chain.url,
  });
  switchable = createSwitchableChain(initial);
  app = await createTestApp({}, { chain: switchable });
});
afterAll(async () => {
  await chain?.stop();
});

describe("GET /api/balance", () => {
  it("returns the exact balance in whole tokens, address checksummed", async () => {
    await useChain();
    const zero = randomAddress();
    const oneWei = randomAddress();
    const large = randomAddress();
    const fractional = randomAddress();
    await chain.mint(oneWei, 1n);
    await chain.mint(large, 123_456_789_012_345_678_901_234_567_890_123n);
    await chain.mint(fractional, tokens("1234.567890123456789"));

    const get = (address: string) => app.inject({ url: `/api/balance?address=${address}` });
    const cases: [Address, string][] = [
      [zero, "0"],
      [oneWei, "0.000000000000000001"],
      [large, "123456789012345.678901234567890123"],
      [fractional, "1234.567890123456789"],
    ];
    for (const [address, expected] of cases) {
      const response = await get(address.toLowerCase());
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ balance: expected, walletAddress: getAddress(address) });
    }
  });

  it("reads decimals from the token instead of assuming 18", async () => {
    const sixDecimals = await chain.deployToken("USD6", 6);
    const holder = randomAddress();
    await chain.mint(holder, 1_000_001n, sixDecimals);
    await useChain({ tokenAddress: sixDecimals, price: { source: "fixed" } });
    const response = await app.inject({ url: `/api/balance?address=${holder}` });
    expect(response.json()).toEqual({ balance: "1.000001", walletAddress: holder });
  });

  it("refuses bad addresses with 400 and a clear message", async () => {
    await useChain();
    // Flip the case of one letter: still hex, but the EIP-55 checksum no longer matches. The result must keep
    // both cases: all lower (or all upper) case is an address without a checksum, which is valid.
    let mixed: string;
    let badChecksum: string;
    do {
      mixed = getAddress(randomAddress());
      const i = mixed.slice(2).search(/[a-fA-F]/) + 2;
      badChecksum =
        mixed.slice(0, i) +
        (mixed[i] === mixed[i]!.toUpperCase() ? mixed[i]!.toLowerCase() : mixed[i]!.toUpperCase()) +
        mixed.slice(i + 1);
    } while (!/[a-f]/.test(badChecksum.slice(2)) || !/[A-F]/.test(badChecksum.slice(2)));
    for (const query of [
      "",
      "?address=",
      "?address=0x123",
      "?address=hello",
      `?address=${mixed}00`,
      `?address=${badChecksum}`,
    ]) {
      const response = await app.inject({ url: `/api/balance${query}` });
      expect(response.statusCode, query).toBe(400);
      const body = response.json();
      expect(body.error.code).toMatch(/VALIDATION_ERROR|BAD_REQUEST/);
      expect(body.error.message).toMatch(/address/i);
    }
  });

  it("answers 502 when the node is unreachable and 504 when it is too slow, never 500", async () => {
    const proxy = await startRpcProxy(chain.url);
    await useChain({ rpcUrls: [proxy.url], rpcTimeoutMs: 300 });

    proxy.setMode("hang");
    const started = Date.now();
    const slow = await app.inject({ url: `/api/balance?address=${randomAddress()}` });
    expect(slow.statusCode).toBe(504);
    expect(slow.json().error.code).toBe("GATEWAY_TIMEOUT");
    // It gave up (the node never answers); seconds of margin over the 300 ms deadline for a busy machine.
    expect(Date.now() - started).toBeLessThan(15_000);

    await proxy.close();
    const down = await app.inject({ url: `/api/balance?address=${randomAddress()}` });
    expect(down.statusCode).toBe(502);
    expect(down.json().error.code).toBe("BAD_GATEWAY");
    expect(down.body).not.toContain("127.0.0.1"); // no node URL (it could hold an API key) leaks out
  });

  it("falls back to the next RPC URL when the first is down", async () => {
    const dead = await closedPortUrl();
    const connected = await connectTestChain(chain.url, chain.deployment, { rpcUrls: [chain.url, dead] });
    // Swap the order after connecting is not possible; instead start with the dead one first.
    await connected.close();
    const viaFallback = await connectTestChain(chain.url, chain.deployment, { rpcUrls: [dead, chain.url] });
    const holder = randomAddress();
    await chain.mint(holder, tokens("5"));
    expect((await viaFallback.getBalance(holder)).balance).toBe("5");
  });

  it("coalesces identical concurrent requests into one RPC call and caches the result", async () => {
    const proxy = await startRpcProxy(chain.url);
    afterAll(() => proxy.close());
    // The cache's clock moves only when the test says: the steps may take any time on a busy machine.
    let nowMs = Date.now();
    switchable.use(
      await connectChain(chainConfigFor(proxy.url, chain.deployment, { balanceCacheMs: 400 }), {
        now: () => nowMs,
      }),
    );
    const holder = randomAddress();
    await chain.mint(holder, tokens("42.5"));

    const before = proxy.requests;
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        app.inject({ url: `/api/balance?address=${i % 2 ? holder.toLowerCase() : holder}` }),
      ),
    );
    expect(responses.every((r) => r.statusCode === 200 && r.json().balance === "42.5")).toBe(true);
    expect(proxy.requests - before).toBe(1);

    await app.inject({ url: `/api/balance?address=${holder}` });
    expect(proxy.requests - before).toBe(1); // still cached

    await chain.mint(holder, tokens("0.5"));
    nowMs += 399;
    await app.inject({ url: `/api/balance?address=${holder}` });
    expect(proxy.requests - before).toBe(1); // cached until its time is up
    nowMs += 1;
    const fresh = await app.inject({ url: `/api/balance?address=${holder}` });
    expect(fresh.json().balance).toBe("43");
    expect(proxy.requests - before).toBe(2);
  });

  it("answers 503 when the server has no chain configured", async () => {
    const bare = await createTestApp();
    const response = await bare.inject({ url: `/api/balance?address=${randomAddress()}` });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe("SERVICE_UNAVAILABLE");
  });
});

describe("price", () => {
  it("computes the pool price with integer math", () => {
    // 2,000,000 CPXTB (18 dp) against 3 WETH at 2,500.12345678 USD/ETH (8 dp feed).
    const ethUsdE18 = scaleTo18(250_012_345_678n, 8);
    expect(formatUnits(ethUsdE18, 18)).toBe("2500.12345678");
    const priceE18 = poolPriceE18({
      reserveToken: tokens("2000000"),
      reserveQuote: tokens("3"),
      tokenDecimals: 18,
      quoteDecimals: 18,
      ethUsdE18,
    });
    expect(formatUnits(priceE18, 18)).toBe("0.00375018518517");
    // A 6-decimal token: the reserve scale changes, the price must not.
    const sixDp = poolPriceE18({
      reserveToken: 2_000_000_000_000n,
      reserveQuote: tokens("3"),
      tokenDecimals: 6,
      quoteDecimals: 18,
      ethUsdE18,
    });
    expect(sixDp).toBe(priceE18);
  });

  it("GET /api/price reads the pool reserves and the ETH/USD feed on chain", async () => {
    await chain.setReserves(tokens("2000000"), tokens("3"));
    await chain.setFeed(250_012_345_678n);
    const connected = await useChain({ price: { source: "pool", cacheMs: 0 } });
    const response = await app.inject({ url: "/api/price" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      usdPerToken: "0.00375018518517",
      priceE18: "3750185185170000",
      ethUsd: "2500.12345678",
      source: "pool",
      stale: false,
    });
    expect(Math.abs(Date.parse(body.updatedAt) - Date.now())).toBeLessThan(60_000);
    expect(await connected.price.getQuotablePrice()).toMatchObject({ priceE18: 3_750_185_185_170_000n });
  });

  it("reports a price older than the maximum age as stale and refuses it for quotes (503)", async () => {
    const twoHoursAgo = BigInt(Math.floor(Date.now() / 1000) - 7200);
    await chain.setFeed(200_000_000_000n, twoHoursAgo);
    const connected = await useChain({ price: { source: "pool", cacheMs: 0, maxAgeSeconds: 3600 } });
    const body = (await app.inject({ url: "/api/price" })).json();
    expect(body.stale).toBe(true);
    expect(body.ethUsd).toBe("2000");
    expect(Date.parse(body.updatedAt)).toBe(Number(twoHoursAgo) * 1000);
    await expect(connected.price.getQuotablePrice()).rejects.toMatchObject({
      statusCode: 503,
      code: "SERVICE_UNAVAILABLE",
      details: { reason: "price_stale" },
    });
    await chain.setFeed(200_000_000_000n); // fresh again for the other tests
    await expect(connected.price.getQuotablePrice()).resolves.toMatchObject({ stale: false });
  });

  it("a pool without liquidity answers 502 with details.reason price_pool_empty (issue 37)", async () => {
    await chain.setReserves(0n, 0n);
    await useChain({ price: { source: "pool", cacheMs: 0 } });
    try {
      const response = await app.inject({ url: "/api/price" });
      expect(response.statusCode).toBe(502);
      expect(response.json().error).toMatchObject({
        code: "BAD_GATEWAY",
        details: { reason: "price_pool_empty" },
      });
    } finally {
      await chain.setReserves(tokens("2000000"), tokens("3"));
    }
  });

  it("serves the configured fixed price without touching the chain", async () => {
    await useChain({ price: { source: "fixed", fixedUsd: "0.0123" } });
    const body = (await app.inject({ url: "/api/price" })).json();
    expect(body).toMatchObject({
      usdPerToken: "0.0123",
      priceE18: "12300000000000000",
      ethUsd: null,
      source: "fixed",
      stale: false,
    });
  });
});

describe("start-up checks", () => {
  it("fails clearly when the node serves another chain", async () => {
    const attempt = connectTestChain(chain.url, chain.deployment, { chainId: 8453 });
    await expect(attempt).rejects.toThrow(ChainStartupError);
    await expect(attempt).rejects.toThrow(
      /CHAIN_ID is 8453 but the RPC node at http:\/\/127\.0\.0\.1:\d+ serves chain 31337/,
    );
  });

  it("fails clearly when the token address has no contract", async () => {
    await expect(
      connectTestChain(chain.url, chain.deployment, { tokenAddress: randomAddress() }),
    ).rejects.toThrow(/has no contract code/);
  });

  it("fails clearly when the node is unreachable", async () => {
    await expect(connectTestChain(await closedPortUrl(), chain.deployment)).rejects.toThrow(
      /cannot be reached/,
    );
  });

  it("reads decimals and symbol from the token", async () => {
    const connected = await connectTestChain(chain.url, chain.deployment);
    expect(connected.token).toEqual({ address: chain.deployment.token, decimals: 18, symbol: "CPXTB" });
  });
});

describe("chain config and the development RPC proxy", () => {
  it("publishes the public chain values and proxies only safe methods", async () => {
    // The shared app was built with a chain that has an embedded RPC, so the proxy route exists.
    switchable.use(
      await connectChain(chainConfigFor(chain.url, chain.deployment), { embeddedRpcUrl: chain.url }),
    );
    const config = (
      await app.inject({ url: "/api/chain-config", headers: { host: "localhost:5000" } })
    ).json();
    expect(config).toMatchObject({
      chainId: 31337,
      rpcUrl: "http://localhost:5000/api/chain/rpc",
      token: { address: chain.deployment.token, symbol: "CPXTB", decimals: 18 },
      development: true,
    });
    const rpc = (body: unknown) =>
      app.inject({
        method: "POST",
        url: "/api/chain/rpc",
        payload: body as object,
        headers: { origin: "http://localhost:5000", host: "localhost:5000" },
      });
    const ok = await rpc({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
    expect(ok.json()).toMatchObject({ result: "0x7a69" });
    for (const method of ["eth_sendTransaction", "anvil_setBalance", "evm_mine", "eth_accounts"]) {
      const refused = await rpc({ jsonrpc: "2.0", id: 1, method, params: [] });
      expect(refused.statusCode, method).toBe(403);
    }
  });
});

describe("embedded chain", () => {
  it("deploys on first start only and keeps balances across a restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-embedded-"));
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
    const config = testConfig().chain;
    const holder = randomAddress();

    const first = await startEmbeddedChain(config, dataDir);
    expect(first.deployed).toBe(true);
    expect(first.chain.chainId).toBe(31337);
    const { walletClient, publicClient } = (await import("../src/chain/dev-chain.ts")).devClients(
      first.anvil.url,
    );
    const DevToken = (await import("../../contracts/artifacts/DevToken.json", { with: { type: "json" } }))
      .default;
    const hash = await walletClient.writeContract({
      address: first.deployment.token,
      abi: DevToken.abi as never,
      functionName: "mint",
      args: [holder, tokens("77.000001")],
    } as never);
    await publicClient.waitForTransactionReceipt({ hash });
    const firstPid = first.anvil.pid;
    await first.chain.close();
    expect(() => process.kill(firstPid, 0)).toThrow(); // anvil is gone with the chain

    const second = await startEmbeddedChain(config, dataDir);
    try {
      expect(second.deployed).toBe(false);
      expect(second.deployment.token).toBe(first.deployment.token);
      expect((await second.chain.getBalance(holder)).balance).toBe("77.000001");
      expect((await second.chain.getBalance(second.demoAccounts[1]!.address)).balance).toBe("10000");
    } finally {
      await second.chain.close();
    }
  });
});
