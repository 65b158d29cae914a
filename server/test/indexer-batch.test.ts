// The indexer's batches (decision 022): many transfers of one block matched and credited together, with a number
// of statements that does not depend on how many; replays, payments paid twice in a block and reorgs of a batch.
// Timing lives in bench/indexer.ts, never here.
import { sql } from "drizzle-orm";
import { encodeFunctionData, erc20Abi, type Hash, type Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/client.ts";
import {
  api,
  beforeNextTransaction,
  createClock,
  createPayment,
  getPayment,
  type PaymentJson,
  startBatchWorld,
} from "./payment-helpers.ts";

const clock = createClock();
const CONFIRMATIONS = 2;
let world: Awaited<ReturnType<typeof startBatchWorld>>;
let chain: typeof world.chain;
let app: typeof world.app;
let database: typeof world.database;
let tools: typeof world.tools;
let merchant: typeof world.merchant;
let counter: typeof world.counter;

beforeAll(async () => {
  world = await startBatchWorld({ confirmations: CONFIRMATIONS, now: clock.now });
  ({ chain, app, database, tools, merchant, counter } = world);
});
afterAll(() => world?.close());

const sync = () => app.payments.indexer!.runOnce();
const submit = (p: { reference: string }, txHash: string) =>
  api(app).post(`/api/payments/public/${p.reference}/tx`, { txHash });

/** Token transfers signed once (the same hashes can be mined again after a revert). */
async function signTransfers(payer: PrivateKeyAccount, amounts: (bigint | string)[]): Promise<Hex[]> {
  const nonce = await tools.test.getTransactionCount({ address: payer.address, blockTag: "pending" });
  return Promise.all(
    amounts.map((amount, i) =>
      payer.signTransaction({
        chainId: 31337,
        type: "eip1559",
        to: chain.deployment.token,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: "transfer",
          args: [merchant.wallet.address, BigInt(amount)],
        }),
        nonce: nonce + i,
        gas: 100_000n,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 10n ** 9n,
      }),
    ),
  );
}

/** Mines the transactions into one block; returns their hashes in order. */
async function mineInOneBlock(raws: Hex[]): Promise<Hash[]> {
  await tools.test.setAutomine(false);
  try {
    const hashes: Hash[] = [];
    for (const raw of raws) hashes.push(await tools.test.sendRawTransaction({ serializedTransaction: raw }));
    await tools.mine(1);
    const receipts = await Promise.all(
      hashes.map((hash) => tools.test.waitForTransactionReceipt({ hash, pollingInterval: 20 })),
    );
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(1);
    return hashes;
  } finally {
    await tools.test.setAutomine(true);
  }
}

async function count(table: "payment_events" | "payment_timeline" | "chain_transfers"): Promise<number> {
  const result = await database.db.execute(sql.raw(`select count(*) as n from ${table}`));
  return Number(rowsOf<{ n: string }>(result)[0]!.n);
}

/** Statements the app sent during one indexer catch-up. */
async function countedSync(): Promise<number> {
  return (await counter.count(sync)).statements;
}

const statusOf = async (id: string) => (await getPayment(app, merchant.cookie, id)).status;

describe("a block of many transfers", () => {
  it("credits many payments at once, sends unknown amounts to the inbox; a reorg of that block un-credits them all and the re-mined logs credit each once", async () => {
    const payments: PaymentJson[] = [];
    for (let i = 0; i < 30; i++) {
      payments.push(await createPayment(app, merchant.cookie, { amount: `${1 + (i % 7)}.00` }));
    }
    const payer = await tools.payer();
    const unknown = [111_111n, 222_222n, 333_333n];
    const raws = await signTransfers(payer, [...payments.map((p) => p.amountDueBase), ...unknown]);
    await sync();
    const snapshot = await tools.snapshot();
    const hashes = await mineInOneBlock(raws);
    await sync();
    for (const p of payments) expect(await statusOf(p.id)).toBe("processing");
    const inbox = (await api(app, merchant.cookie).get("/api/merchant/inbox")).json().items as {
      txHash: string;
    }[];
    expect(hashes.slice(payments.length).every((h) => inbox.some((t) => t.txHash === h))).toBe(true);

    // The block is replaced by one without those transfers.
    await tools.revert(snapshot);
    await tools.mine(2);
    await sync();
    for (const p of payments) {
      const back = await getPayment(app, merchant.cookie, p.id);
      expect(back.status).toBe("pending");
      expect(back.transfers).toEqual([expect.objectContaining({ orphaned: true })]);
    }

    // Mined again (the same signed transactions, the same hashes): each credited once.
    expect(await mineInOneBlock(raws)).toEqual(hashes);
    await tools.mine(CONFIRMATIONS - 1);
    await sync();
    for (const [i, p] of payments.entries()) {
      const done = await getPayment(app, merchant.cookie, p.id);
      expect(done.status).toBe("completed");
      expect(done.amountReceivedBase).toBe(p.amountDueBase);
      expect(done.overpaid).toBe(false);
      expect(done.transfers).toEqual([expect.objectContaining({ txHash: hashes[i], orphaned: false })]);
      expect(done.timeline.map((t) => t.to)).toEqual(["pending", "processing", "pending", "completed"]);
    }
  });

  it("a replayed batch (the same logs again, from an older cursor) credits nothing twice and writes nothing", async () => {
    const payments = [await createPayment(app, merchant.cookie), await createPayment(app, merchant.cookie)];
    const payer = await tools.payer();
    await sync();
    const before = await tools.test.getBlockNumber({ cacheTime: 0 });
    await mineInOneBlock(await signTransfers(payer, [...payments.map((p) => p.amountDueBase), 4_444n]));
    await tools.mine(CONFIRMATIONS - 1);
    await sync();
    for (const p of payments) expect(await statusOf(p.id)).toBe("completed");
    const written = await Promise.all([
      count("payment_events"),
      count("payment_timeline"),
      count("chain_transfers"),
    ]);
    // As after a crash between the commit and the next checkpoint: the cursor goes back before the block.
    await database.db.execute(sql`delete from indexer_blocks where block_number > ${before.toString()}`);
    await sync();
    expect(
      await Promise.all([count("payment_events"), count("payment_timeline"), count("chain_transfers")]),
    ).toEqual(written);
    for (const p of payments) {
      const again = await getPayment(app, merchant.cookie, p.id);
      expect(again).toMatchObject({ status: "completed", amountReceivedBase: p.amountDueBase });
      expect(again.transfers).toHaveLength(1);
    }
  });
});

describe("two transfers to one payment in one block", () => {
  it("partial + rest (both posted by the pay page before the indexer reaches the block) -> completed", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const due = BigInt(payment.amountDueBase);
    const payer = await tools.payer();
    await sync();
    const [part, rest] = await mineInOneBlock(await signTransfers(payer, [due - 10n ** 18n, 10n ** 18n]));
    expect((await submit(payment, part!)).statusCode).toBe(200);
    expect((await submit(payment, rest!)).statusCode).toBe(200);
    await tools.mine(CONFIRMATIONS - 1);
    await sync();
    const done = await getPayment(app, merchant.cookie, payment.id);
    expect(done).toMatchObject({ status: "completed", amountReceivedBase: due.toString(), overpaid: false });
    expect(done.transfers).toHaveLength(2);
    expect(done.timeline.filter((t) => t.to === "completed")).toHaveLength(1);
  });

  it("exact (matched by amount) + extra (posted by the pay page) -> completed, overpaid by the extra", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const payer = await tools.payer();
    const extra = 3n * 10n ** 18n;
    await sync();
    const [, more] = await mineInOneBlock(await signTransfers(payer, [payment.amountDueBase, extra]));
    expect((await submit(payment, more!)).statusCode).toBe(200);
    await tools.mine(CONFIRMATIONS - 1);
    await sync();
    const done = await getPayment(app, merchant.cookie, payment.id);
    expect(done).toMatchObject({ status: "completed", overpaid: true, overpaidBase: extra.toString() });
    expect(done.transfers).toHaveLength(2);
    // Both confirmed by the time the indexer reads the block: straight to completed.
    expect(done.timeline.map((t) => t.to)).toEqual(["pending", "completed"]);
  });

  it("its exact amount twice -> both credited to it once each, completed and overpaid", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const payer = await tools.payer();
    await sync();
    await mineInOneBlock(await signTransfers(payer, [payment.amountDueBase, payment.amountDueBase]));
    await tools.mine(CONFIRMATIONS - 1);
    await sync();
    const done = await getPayment(app, merchant.cookie, payment.id);
    expect(done).toMatchObject({
      status: "completed",
      overpaid: true,
      overpaidBase: payment.amountDueBase,
      amountReceivedBase: (2n * BigInt(payment.amountDueBase)).toString(),
    });
    expect(done.transfers).toHaveLength(2);
    expect(done.timeline.filter((t) => t.to === "completed")).toHaveLength(1);
  });
});

describe("a credit while the indexer moves on", () => {
  /** A transfer of more than the payment asks (no amount match: the merchant's inbox), one block deep. */
  async function unmatchedTransfer() {
    const payment = await createPayment(app, merchant.cookie);
    const payer = await tools.payer();
    await sync();
    const { hash } = await tools.pay(payer, merchant.wallet.address, BigInt(payment.amountDueBase) + 7n);
    return { payment, hash };
  }

  it("an inbox transfer the merchant assigns as the indexer confirms it -> completed, not left processing", async () => {
    const { payment, hash } = await unmatchedTransfer();
    await sync();
    const inbox = (await api(app, merchant.cookie).get("/api/merchant/inbox")).json().items as {
      id: string;
      txHash: string;
    }[];
    const transfer = inbox.find((t) => t.txHash === hash)!;
    // The assignment has read the indexed head; before its transaction the indexer confirms the transfer's block
    // (it evaluates nothing: the transfer is nobody's yet).
    const restore = beforeNextTransaction(app, async () => {
      await tools.mine(CONFIRMATIONS - 1);
      await sync();
    });
    try {
      const assigned = await api(app, merchant.cookie).post(`/api/merchant/inbox/${transfer.id}/assign`, {
        paymentId: payment.id,
      });
      expect(assigned.statusCode, assigned.body).toBe(200);
    } finally {
      restore();
    }
    expect((await getPayment(app, merchant.cookie, payment.id)).status).toBe("completed");
  });

  it("a hash the pay page posts as the indexer confirms its block -> completed, not left processing", async () => {
    const { payment, hash } = await unmatchedTransfer();
    // The submission has read the receipt and the node's head; before its transaction a block is mined and the
    // indexer stores the transfer (inbox) and passes the block that confirms it.
    const restore = beforeNextTransaction(app, async () => {
      await tools.mine(CONFIRMATIONS - 1);
      await sync();
    });
    try {
      expect((await submit(payment, hash)).statusCode).toBe(200);
    } finally {
      restore();
    }
    expect((await getPayment(app, merchant.cookie, payment.id)).status).toBe("completed");
  });
});

describe("statements per batch", () => {
  /** A block of `n` exact payments and one unknown amount, processed from a quiet start; its statement count. */
  async function batchOf(n: number): Promise<number> {
    const payments: PaymentJson[] = [];
    for (let i = 0; i < n; i++) payments.push(await createPayment(app, merchant.cookie, { amount: "2.50" }));
    const payer = await tools.payer();
    const raws = await signTransfers(payer, [...payments.map((p) => p.amountDueBase), 5_555n + BigInt(n)]);
    // Nothing awaiting confirmations from earlier blocks.
    await tools.mine(CONFIRMATIONS);
    await sync();
    await mineInOneBlock(raws);
    const counted = await countedSync();
    for (const p of payments) expect(await statusOf(p.id)).toBe("processing");
    await tools.mine(CONFIRMATIONS - 1);
    await sync();
    for (const p of payments) expect(await statusOf(p.id)).toBe("completed");
    return counted;
  }

  it("is the same for 5 transfers and for 50", async () => {
    const few = await batchOf(5);
    const many = await batchOf(50);
    expect(many).toBe(few);
    // Against ~8 per transfer one at a time.
    expect(few).toBeLessThan(30);
  });
});
