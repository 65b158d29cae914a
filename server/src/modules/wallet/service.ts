import { MANAGED_WALLET_RECENT_SIGN_IN_MS } from "@common/social.ts";
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  formatEther,
  formatUnits,
  getAddress,
  type Hex,
  keccak256,
  parseUnits,
  TransactionReceiptNotFoundError,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Chain } from "../../chain/service.ts";
import type { Config } from "../../config.ts";
import { ANVIL_CHAIN_ID } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import type { Auth } from "../auth/session.ts";
import * as payments from "../payments/repository.ts";
import { createManagedKeys, type ManagedKeys, resolveMasterSeed } from "./keys.ts";
import * as repo from "./repository.ts";

/** Anvil's default account #7 (public knowledge): the development gas account (#0-#3 demo, #4 treasury, #5-#6 e2e buyers). */
const ANVIL_GAS_KEY: Hex = "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356";
const DAY_MS = 24 * 60 * 60 * 1000;
const RECEIPT_TIMEOUT_MS = 60_000;

type Log = { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };

export type ManagedWalletsDeps = { db: Db; config: Config; chain: Chain | null; log: Log };

/**
 * Custodial wallets of social accounts (decision 012): addresses from the master seed, keys derived per signature,
 * every send written before it is broadcast and idempotent per (user, key).
 */
export function createManagedWallets(deps: ManagedWalletsDeps) {
  const { db, config } = deps;
  let keys: ManagedKeys | null | undefined;
  const getKeys = (): ManagedKeys => {
    if (keys === undefined) {
      const seed = resolveMasterSeed(config.wallet, config.dataDir, deps.log);
      keys = seed ? createManagedKeys(seed) : null;
    }
    if (!keys)
      throw new AppError("SERVICE_UNAVAILABLE", "Managed wallets are not configured on this server.");
    return keys;
  };
  const requireChain = (): Chain => {
    if (!deps.chain) throw new AppError("SERVICE_UNAVAILABLE", "The blockchain is not reachable right now.");
    return deps.chain;
  };
  const gasKey = (): Hex | null =>
    config.wallet.gasPrivateKey ?? (deps.chain?.chainId === ANVIL_CHAIN_ID ? ANVIL_GAS_KEY : null);

  async function ensureWallet(tx: DbOrTx, userId: string) {
    const found = await repo.findManagedWallet(tx, userId);
    if (found) return found;
    const k = getKeys();
    return repo.insertManagedWallet(tx, userId, (index) => k.addressOf(index));
  }

  async function tokenBalance(chain: Chain, address: Address): Promise<bigint> {
    return chain.client.readContract({
      address: chain.token.address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [address],
    });
  }

  async function balanceOf(address: string): Promise<string> {
    const chain = requireChain();
    const balance = await chain.getBalance(getAddress(address));
    return balance.balance;
  }

  function dailyLimitBase(chain: Chain): bigint {
    return parseUnits(config.wallet.dailyLimitTokens, chain.token.decimals);
  }

  async function walletOf(userId: string) {
    const wallet = await repo.findManagedWallet(db, userId);
    if (!wallet) {
      throw new AppError(
        "NOT_FOUND",
        "This account has no managed wallet. Sign in with a social account first.",
      );
    }
    return wallet;
  }

  async function summary(userId: string) {
    const chain = requireChain();
    const wallet = await walletOf(userId);
    const address = getAddress(wallet.address);
    const [tokens, eth, spent] = await Promise.all([
      tokenBalance(chain, address),
      chain.client.getBalance({ address }),
      repo.sumSentSince(db, userId, new Date(Date.now() - DAY_MS)),
    ]);
    return {
      address,
      balance: formatUnits(tokens, chain.token.decimals),
      ethBalance: formatEther(eth),
      symbol: chain.token.symbol,
      dailyLimit: config.wallet.dailyLimitTokens,
      spentToday: formatUnits(spent, chain.token.decimals),
      custodial: true as const,
    };
  }

  /**
   * Writes the send (or finds the one with this key) under the wallet's lock, after the daily limit check.
   * `settle`, called inside that transaction, may lower the amount (or refuse) from rows it locks there.
   */
  async function reserve(
    chain: Chain,
    userId: string,
    wallet: repo.ManagedWalletRow,
    input: { kind: "pay" | "withdraw"; to: Address; amount: bigint; key: string; reference: string | null },
    settle?: (tx: DbOrTx) => Promise<bigint>,
  ): Promise<repo.WalletSendRow> {
    const existing = await repo.findSendByKey(db, userId, input.key);
    if (existing) return existing;
    const balance = await tokenBalance(chain, getAddress(wallet.address));
    if (balance < input.amount) {
      throw new AppError(
        "UNPROCESSABLE",
        `Your wallet holds ${formatUnits(balance, chain.token.decimals)} ${chain.token.symbol}; this needs ${formatUnits(input.amount, chain.token.decimals)}.`,
        {
          reason: "insufficient_balance",
          balance: formatUnits(balance, chain.token.decimals),
          needed: formatUnits(input.amount, chain.token.decimals),
        },
      );
    }
    const row = await db.transaction(async (tx) => {
      await repo.lockSigner(tx, wallet.address);
      const again = await repo.findSendByKey(tx, userId, input.key);
      if (again) return again;
      const amount = settle ? await settle(tx) : input.amount;
      const spent = await repo.sumSentSince(tx, userId, new Date(Date.now() - DAY_MS));
      const limit = dailyLimitBase(chain);
      if (spent + amount > limit) {
        throw new AppError(
          "UNPROCESSABLE",
          `This would pass your daily limit of ${config.wallet.dailyLimitTokens} ${chain.token.symbol} (already sent in the last 24 hours: ${formatUnits(spent, chain.token.decimals)}).`,
          {
            reason: "daily_limit",
            dailyLimit: config.wallet.dailyLimitTokens,
            spent: formatUnits(spent, chain.token.decimals),
          },
        );
      }
      return repo.insertSend(tx, {
        id: createId("wsd"),
        userId,
        kind: input.kind,
        idempotencyKey: input.key,
        chainId: chain.chainId,
        fromAddress: wallet.address,
        toAddress: input.to,
        tokenAddress: chain.token.address,
        amountBase: amount,
        paymentReference: input.reference,
      });
    });
    return row ?? (await repo.findSendByKey(db, userId, input.key))!;
  }

  /**
   * Signs the reserved send under its signer's lock (nonce = max(recorded next, chain's pending count)), writes the
   * signed bytes and hash, and only then broadcasts. A send already signed is re-broadcast as the same bytes.
   */
  async function signAndBroadcast(
    chain: Chain,
    sendId: string,
    signer: {
      address: Address;
      sign: (tx: Parameters<ReturnType<typeof privateKeyToAccount>["signTransaction"]>[0]) => Promise<Hex>;
    },
    build: () => Promise<{ to: Address; data?: Hex; value?: bigint; gas: bigint }>,
  ): Promise<repo.WalletSendRow> {
    let row = await db.transaction(async (tx) => {
      const nextNonce = await repo.lockSigner(tx, signer.address);
      const current = await repo.findSendForUpdate(tx, sendId);
      if (current.status !== "reserved") return current;
      const [pending, fees, body] = await Promise.all([
        chain.client.getTransactionCount({ address: signer.address, blockTag: "pending" }),
        chain.client.estimateFeesPerGas(),
        build(),
      ]);
      const nonce = Math.max(nextNonce, pending);
      const raw = await signer.sign({
        type: "eip1559",
        chainId: chain.chainId,
        nonce,
        to: body.to,
        data: body.data,
        value: body.value ?? 0n,
        gas: body.gas,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      await repo.setSignerNonce(tx, signer.address, nonce + 1);
      return repo.updateSend(tx, sendId, { status: "signed", nonce, rawTx: raw, txHash: keccak256(raw) });
    });
    if (row.status === "signed") row = await broadcast(chain, row);
    return row;
  }

  async function broadcast(chain: Chain, row: repo.WalletSendRow): Promise<repo.WalletSendRow> {
    try {
      await chain.client.sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
    } catch (error) {
      // Already in the pool or mined (a retry, or two racing requests): the same bytes, so the same transaction.
      const known = await chain.client
        .getTransaction({ hash: row.txHash as Hex })
        .then(() => true)
        .catch(() => false);
      if (!known) {
        const message = error instanceof Error ? error.message : String(error);
        if (/nonce too low|replacement transaction underpriced/i.test(message)) {
          return repo.updateSend(db, row.id, { status: "failed", error: "nonce already used" });
        }
        throw new AppError(
          "BAD_GATEWAY",
          "Could not send the transaction to the network. Try again: it will not be sent twice.",
        );
      }
    }
    return repo.updateSend(db, row.id, { status: "broadcast" });
  }

  /** Makes sure the wallet can pay for `gas`: the gas account sends it ETH first (recorded and idempotent too). */
  async function ensureGas(chain: Chain, send: repo.WalletSendRow, wallet: Address, gas: bigint) {
    const [balance, fees] = await Promise.all([
      chain.client.getBalance({ address: wallet }),
      chain.client.estimateFeesPerGas(),
    ]);
    const needed = gas * fees.maxFeePerGas;
    if (balance >= needed) return;
    const key = gasKey();
    if (!key)
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        "The wallet has no ETH for gas and no gas account is configured.",
      );
    const gasAccount = privateKeyToAccount(key);
    const amount = needed * 2n > config.wallet.gasTopUpWei ? needed * 2n : config.wallet.gasTopUpWei;
    const topUpKey = `gas:${send.id}`;
    let topUp = await repo.findSendByKey(db, send.userId, topUpKey);
    topUp ??= await repo.insertSend(db, {
      id: createId("wsd"),
      userId: send.userId,
      kind: "gas_topup",
      idempotencyKey: topUpKey,
      chainId: chain.chainId,
      fromAddress: gasAccount.address,
      toAddress: wallet,
      tokenAddress: null,
      amountBase: amount,
    });
    topUp ??= (await repo.findSendByKey(db, send.userId, topUpKey))!;
    if (topUp.status === "reserved") {
      topUp = await signAndBroadcast(
        chain,
        topUp.id,
        { address: gasAccount.address, sign: (tx) => gasAccount.signTransaction(tx) },
        async () => ({ to: wallet, value: amount, gas: 21_000n }),
      );
    } else if (topUp.status === "signed") {
      topUp = await broadcast(chain, topUp);
    }
    if (topUp.status === "failed" || !topUp.txHash) {
      throw new AppError("BAD_GATEWAY", "Could not provide gas for this transaction. Try again.");
    }
    const receipt = await chain.client.waitForTransactionReceipt({
      hash: topUp.txHash as Hex,
      timeout: RECEIPT_TIMEOUT_MS,
    });
    if (receipt.status !== "success") throw new AppError("BAD_GATEWAY", "The gas top-up failed. Try again.");
  }

  /** Drives a token send to the chain: gas first when needed, then signed, recorded, broadcast. */
  async function drive(chain: Chain, wallet: repo.ManagedWalletRow, row: repo.WalletSendRow) {
    if (row.status === "signed") return broadcast(chain, row);
    if (row.status !== "reserved") return row;
    const from = getAddress(wallet.address);
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: [getAddress(row.toAddress), row.amountBase],
    });
    const estimate = await chain.client.estimateGas({ account: from, to: chain.token.address, data });
    const gas = (estimate * 12n) / 10n;
    await ensureGas(chain, row, from, gas);
    const k = getKeys();
    return signAndBroadcast(
      chain,
      row.id,
      {
        address: from,
        // The key exists only inside this call.
        sign: (tx) => k.withSigner(wallet.addressIndex, (account) => account.signTransaction(tx)),
      },
      async () => ({ to: chain.token.address, data, gas }),
    );
  }

  function sameRequest(row: repo.WalletSendRow, kind: string, to: Address, amount: bigint) {
    if (row.kind !== kind || row.toAddress.toLowerCase() !== to.toLowerCase() || row.amountBase !== amount) {
      throw new AppError("CONFLICT", "This idempotencyKey was already used for a different request.");
    }
  }

  /** What a payment asks a payer to send now: all of it while nothing was seen, what remains of a partial one. */
  function stillAsked(p: { status: string; amountDue: bigint; amountSeen: bigint }): bigint {
    if (p.status === "pending" && p.amountSeen === 0n) return p.amountDue;
    if (p.status === "partial") return p.amountDue - p.amountSeen;
    throw new AppError("CONFLICT", `This payment cannot be paid now (it is ${p.status}).`, {
      reason: "not_payable",
      status: p.status,
    });
  }

  async function pay(auth: Auth, input: { reference: string; idempotencyKey: string }) {
    const chain = requireChain();
    const wallet = await walletOf(auth.user.id);
    const existing = await repo.findSendByKey(db, auth.user.id, input.idempotencyKey);
    if (existing) {
      if (existing.kind !== "pay" || existing.paymentReference !== input.reference) {
        throw new AppError("CONFLICT", "This idempotencyKey was already used for a different request.");
      }
      return drive(chain, wallet, existing);
    }
    const found = await payments.findPaymentByReference(db, input.reference);
    if (!found) throw new AppError("NOT_FOUND", "There is no payment with this reference.");
    const p = found.payment;
    if (p.chainId !== chain.chainId || p.tokenAddress.toLowerCase() !== chain.token.address.toLowerCase()) {
      throw new AppError("CONFLICT", "This payment is on another chain or token than this wallet.");
    }
    const amount = stillAsked(p);
    // Once per payment, not per key: under the payment's lock (on every instance), what managed wallets have on
    // the way to it and the chain has not yet credited counts as paid. Two tabs, a second click after a reload or
    // two accounts never send twice; a partial payment's top-up sends only what is left after them.
    const settle = async (tx: DbOrTx) => {
      const locked = await repo.lockPaymentForSend(tx, input.reference);
      if (!locked) throw new AppError("NOT_FOUND", "There is no payment with this reference.");
      const asked = stillAsked(locked);
      const inFlight = await repo.inFlightPaymentSends(tx, locked.id, input.reference);
      const underway = inFlight.reduce((sum, send) => sum + send.amountBase, 0n);
      if (underway > 0n && asked - underway <= 0n) {
        const first = inFlight[0]!;
        throw new AppError("CONFLICT", "This payment is already being paid.", {
          reason: "payment_in_flight",
          send: {
            id: first.id,
            status: first.status,
            txHash: first.txHash,
            amountBase: first.amountBase.toString(),
          },
        });
      }
      return asked - underway;
    };
    const row = await reserve(
      chain,
      auth.user.id,
      wallet,
      {
        kind: "pay",
        to: getAddress(p.receivingAddress),
        amount,
        key: input.idempotencyKey,
        reference: input.reference,
      },
      settle,
    );
    if (row.kind !== "pay" || row.paymentReference !== input.reference) {
      throw new AppError("CONFLICT", "This idempotencyKey was already used for a different request.");
    }
    return drive(chain, wallet, row);
  }

  async function withdraw(auth: Auth, input: { to: string; amount: string; idempotencyKey: string }) {
    if (Date.now() - auth.session.createdAt.getTime() > MANAGED_WALLET_RECENT_SIGN_IN_MS) {
      throw new AppError(
        "FORBIDDEN",
        "For your safety, sign in again (within the last 15 minutes) before withdrawing.",
        {
          reason: "recent_sign_in_required",
        },
      );
    }
    const chain = requireChain();
    const wallet = await walletOf(auth.user.id);
    const to = getAddress(input.to);
    let amount: bigint;
    try {
      amount = parseUnits(input.amount, chain.token.decimals);
    } catch {
      throw new AppError("VALIDATION_ERROR", `amount has more than ${chain.token.decimals} decimals.`, {
        reason: "too_many_decimals",
        decimals: chain.token.decimals,
      });
    }
    if (amount <= 0n) throw new AppError("VALIDATION_ERROR", "amount must be more than 0.");
    const row = await reserve(chain, auth.user.id, wallet, {
      kind: "withdraw",
      to,
      amount,
      key: input.idempotencyKey,
      reference: null,
    });
    sameRequest(row, "withdraw", to, amount);
    return drive(chain, wallet, row);
  }

  function toResponse(row: repo.WalletSendRow, decimals: number) {
    return {
      id: row.id,
      kind: row.kind as "pay" | "withdraw",
      status: row.status,
      txHash: row.txHash,
      to: row.toAddress,
      amount: formatUnits(row.amountBase, decimals),
      paymentReference: row.paymentReference,
    };
  }

  /**
   * Sends on the network reach their final state here: `confirmed` once mined with the chain's confirmations,
   * `failed` when the transaction reverted (it moved nothing: the daily limit and the payment no longer count
   * it). A node that does not answer leaves them as they were (the list is read again).
   */
  async function settleSends(chain: Chain, rows: repo.WalletSendRow[]): Promise<repo.WalletSendRow[]> {
    if (!rows.some((row) => row.status === "broadcast" && row.txHash)) return rows;
    try {
      const head = await chain.client.getBlockNumber();
      return await Promise.all(
        rows.map(async (row) => {
          if (row.status !== "broadcast" || !row.txHash) return row;
          const receipt = await chain.client
            .getTransactionReceipt({ hash: row.txHash as Hex })
            .catch((e) => (e instanceof TransactionReceiptNotFoundError ? null : Promise.reject(e)));
          if (!receipt) return row;
          if (receipt.status !== "success") {
            return (
              (await repo.finishSend(
                db,
                row.id,
                "failed",
                "The transaction failed on chain; nothing was sent.",
              )) ?? row
            );
          }
          if (head - receipt.blockNumber + 1n < BigInt(Math.max(chain.confirmations, 1))) return row;
          return (await repo.finishSend(db, row.id, "confirmed", null)) ?? row;
        }),
      );
    } catch (error) {
      deps.log.warn({ err: String(error) }, "wallet sends: could not read their receipts");
      return rows;
    }
  }

  /** The list of sends for the profile, amounts in whole tokens (the token's decimals, as read at start). */
  async function sends(userId: string, page: { cursor?: string; limit: number }) {
    const chain = requireChain();
    const decimals = chain.token.decimals;
    const rows = await settleSends(chain, await repo.listSends(db, userId, page));
    const items = rows.slice(0, page.limit).map((row) => ({
      ...toResponse(row, decimals),
      createdAt: row.createdAt.toISOString(),
      txUrl: row.txHash && config.explorerUrl ? `${config.explorerUrl}/tx/${row.txHash}` : null,
    }));
    return { items, nextCursor: rows.length > page.limit ? items[items.length - 1]!.id : null };
  }

  return {
    ensureWallet,
    sends,
    balanceOf,
    summary,
    pay,
    withdraw,
    respond: (row: repo.WalletSendRow) => toResponse(row, requireChain().token.decimals),
  };
}

export type ManagedWallets = ReturnType<typeof createManagedWallets>;
