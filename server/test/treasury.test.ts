import { eq } from "drizzle-orm";
import { type Address, createTestClient, erc20Abi, http, parseAbiItem } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ANVIL_DEV_KEYS, DEV_TREASURY_INDEX } from "../src/chain/dev-chain.ts";
import type { Chain } from "../src/chain/service.ts";
import { testConfig } from "../src/config.ts";
import type { Database } from "../src/db/client.ts";
import { treasuryAttempts, treasurySends } from "../src/db/schema.ts";
import { Treasury, type TreasuryOptions } from "../src/modules/treasury/treasury.ts";
import { connectTestChain, startTestChain, type TestChain, tokens } from "./chain-helpers.ts";
import { createTestDatabase } from "./helpers.ts";

const TREASURY_KEY = ANVIL_DEV_KEYS[DEV_TREASURY_INDEX]!;
const silent = { info() {}, warn() {}, error() {} };

let testChain: TestChain;
let chain: Chain;
let database: Database;
const anvil = () => createTestClient({ mode: "anvil", chain: foundry, transport: http(testChain.url) });

beforeAll(async () => {
  testChain = await startTestChain();
  chain = await connectTestChain(testChain.url, testChain.deployment);
  database = await createTestDatabase();
  await testChain.mint(privateKeyToAccount(TREASURY_KEY).address, tokens("1000"));
});
afterAll(async () => {
  await database?.close();
  await chain?.close();
  await testChain?.stop();
});
beforeEach(async () => {
  await anvil().setAutomine(true);
});

function makeTreasury(
  overrides: Partial<TreasuryOptions> = {},
  config: Partial<TreasuryOptions["config"]> = {},
) {
  return new Treasury({
    db: database.db,
    chain,
    config: { ...testConfig().treasury, stuckAfterMs: 60_000, ...config },
    privateKey: TREASURY_KEY,
    log: silent,
    ...overrides,
  });
}

const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const balanceOf = (address: Address) =>
  chain.client.readContract({
    address: chain.token.address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [address],
  });
/** Every Transfer of the token to `to` on the whole chain: the proof of "exactly once". */
async function transfersTo(to: Address) {
  return chain.client.getLogs({
    address: chain.token.address,
    event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
    args: { to },
    fromBlock: 0n,
  });
}
async function sendRow(refId: string) {
  const [row] = await database.db.select().from(treasurySends).where(eq(treasurySends.refId, refId));
  return row!;
}

describe("treasury queue", () => {
  it("records one send per order however often it is enqueued, and delivers it once", async () => {
    const treasury = makeTreasury();
    const to = freshAddress();
    const a = await treasury.enqueue(database.db, {
      kind: "order",
      refId: "ord_once",
      to,
      amount: tokens("5"),
    });
    const b = await treasury.enqueue(database.db, {
      kind: "order",
      refId: "ord_once",
      to,
      amount: tokens("5"),
    });
    expect(b.id).toBe(a.id);
    await treasury.tick();
    await treasury.tick();
    await treasury.tick();
    expect((await sendRow("ord_once")).status).toBe("confirmed");
    expect(await balanceOf(to)).toBe(tokens("5"));
    expect(await transfersTo(to)).toHaveLength(1);
  });

  it("two instances working the same queue at once send one transaction", async () => {
    const first = makeTreasury();
    const second = makeTreasury();
    const to = freshAddress();
    await first.enqueue(database.db, { kind: "order", refId: "ord_race", to, amount: tokens("2") });
    await Promise.all([first.tick(), second.tick(), first.tick(), second.tick()]);
    await Promise.all([first.tick(), second.tick()]);
    expect((await sendRow("ord_race")).status).toBe("confirmed");
    expect(await transfersTo(to)).toHaveLength(1);
    expect(await balanceOf(to)).toBe(tokens("2"));
  });

  it("a crash between recording and broadcasting: the next instance broadcasts the recorded bytes", async () => {
    const crashing = makeTreasury({
      beforeBroadcast: async () => {
        throw new Error("process died");
      },
    });
    const to = freshAddress();
    await crashing.enqueue(database.db, { kind: "claim", refId: "clm_crash1", to, amount: tokens("1") });
    await crashing.tick();
    const recorded = await sendRow("clm_crash1");
    expect(recorded.status).toBe("signed");
    expect(await transfersTo(to)).toHaveLength(0);
    const next = makeTreasury();
    await next.tick(); // rebroadcast
    await next.tick(); // confirmed
    const row = await sendRow("clm_crash1");
    expect(row.status).toBe("confirmed");
    expect(row.txHash).toBe(recorded.txHash);
    expect(await transfersTo(to)).toHaveLength(1);
  });

  it("a crash after broadcasting: the restarted sender finds the mined transaction and sends nothing more", async () => {
    await anvil().setAutomine(false);
    const dying = makeTreasury();
    const to = freshAddress();
    await dying.enqueue(database.db, { kind: "order", refId: "ord_crash2", to, amount: tokens("3") });
    await dying.tick(); // signed, recorded, broadcast; then the process "dies" (never used again)
    const restarted = makeTreasury();
    await restarted.tick(); // not mined yet: rebroadcasts the same bytes (no new transaction)
    await anvil().mine({ blocks: 1 });
    await restarted.tick();
    expect((await sendRow("ord_crash2")).status).toBe("confirmed");
    const send = await sendRow("ord_crash2");
    expect(
      await database.db.select().from(treasuryAttempts).where(eq(treasuryAttempts.sendId, send.id)),
    ).toHaveLength(1);
    expect(await transfersTo(to)).toHaveLength(1);
  });

  it("a stuck transaction is replaced with a higher fee at the same nonce, and only one is mined", async () => {
    await anvil().setAutomine(false);
    let nowMs = Date.now();
    const treasury = makeTreasury({ now: () => new Date(nowMs) }, { stuckAfterMs: 30_000 });
    const to = freshAddress();
    await treasury.enqueue(database.db, { kind: "order", refId: "ord_stuck", to, amount: tokens("4") });
    await treasury.tick();
    nowMs += 31_000;
    await treasury.tick(); // replaced
    const send = await sendRow("ord_stuck");
    const attempts = await database.db
      .select()
      .from(treasuryAttempts)
      .where(eq(treasuryAttempts.sendId, send.id));
    expect(attempts).toHaveLength(2);
    expect(new Set(attempts.map((a) => a.nonce))).toEqual(new Set([send.nonce]));
    const [older, newer] = attempts.sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
    expect(newer!.maxPriorityFeePerGas).toBeGreaterThan(older!.maxPriorityFeePerGas);
    // Both transactions get broadcast again; the chain can still take only one of them.
    await treasury.tick();
    await anvil().mine({ blocks: 2 });
    await treasury.tick();
    expect((await sendRow("ord_stuck")).status).toBe("confirmed");
    expect(await transfersTo(to)).toHaveLength(1);
    expect(await balanceOf(to)).toBe(tokens("4"));
  });

  it("holds sends beyond the daily cap and reports why", async () => {
    const treasury = makeTreasury({}, { dailyCapTokens: "0.5" });
    const to = freshAddress();
    await treasury.enqueue(database.db, { kind: "order", refId: "ord_capped", to, amount: tokens("1") });
    await treasury.tick();
    const row = await sendRow("ord_capped");
    expect(row.status).toBe("queued");
    expect(row.lastError).toMatch(/daily limit/);
    expect(await transfersTo(to)).toHaveLength(0);
    await database.db.delete(treasurySends).where(eq(treasurySends.id, row.id));
  });

  it("reports a low balance", async () => {
    const treasury = makeTreasury({}, { lowBalanceTokens: "100000000" });
    await treasury.tick();
    expect(treasury.health()).toMatchObject({
      low: true,
      address: privateKeyToAccount(TREASURY_KEY).address,
    });
    const healthy = makeTreasury({}, { lowBalanceTokens: "1" });
    await healthy.tick();
    expect(healthy.health().low).toBe(false);
  });
});
