import type { ClaimStatus } from "@common/claims.ts";
import { and, desc, eq, gte, or, sql } from "drizzle-orm";
import { formatUnits, getAddress, parseUnits } from "viem";
import type { Chain } from "../../chain/service.ts";
import type { Config } from "../../config.ts";
import type { DbOrTx } from "../../db/client.ts";
import { managedWallets, tokenClaims, treasurySends, userWallets } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import { startOfUtcDay, type Treasury } from "../treasury/treasury.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Serialises claims (checks + insert) across instances: a transaction-scoped advisory lock. */
const CLAIMS_LOCK = 7_301_155_220_014;

export type ClaimsDeps = {
  db: DbOrTx;
  chain: Chain | null;
  treasury: Treasury | null;
  config: Config;
  now: () => Date;
};

type Who = { userId: string; walletAddress: string; deviceId: string; ip: string };

const at = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

async function lastClaimOf(db: DbOrTx, who: Partial<Who>, since: Date) {
  const conditions = [
    who.userId ? eq(tokenClaims.userId, who.userId) : undefined,
    who.walletAddress ? eq(tokenClaims.walletAddress, getAddress(who.walletAddress)) : undefined,
    who.deviceId ? eq(tokenClaims.deviceId, who.deviceId) : undefined,
    who.ip ? eq(tokenClaims.ip, who.ip) : undefined,
  ].filter((c) => c !== undefined);
  if (conditions.length === 0) return null;
  const [row] = await db
    .select()
    .from(tokenClaims)
    .where(and(gte(tokenClaims.createdAt, since), or(...conditions)))
    .orderBy(desc(tokenClaims.createdAt))
    .limit(1);
  return row ?? null;
}

export async function claimStatus(deps: ClaimsDeps, who: Partial<Who>): Promise<ClaimStatus> {
  const now = deps.now();
  const last = await lastClaimOf(deps.db, who, new Date(now.getTime() - DAY_MS));
  let lastClaim: ClaimStatus["lastClaim"] = null;
  if (last) {
    const [send] = await deps.db
      .select()
      .from(treasurySends)
      .where(and(eq(treasurySends.kind, "claim"), eq(treasurySends.refId, last.id)));
    const decimals = deps.chain?.token.decimals ?? 18;
    lastClaim = {
      id: last.id,
      amount: formatUnits(last.amount, decimals),
      createdAt: last.createdAt.toISOString(),
      status: send?.status ?? "queued",
      txHash: send?.txHash ?? null,
      txUrl: send?.txHash && deps.config.explorerUrl ? `${deps.config.explorerUrl}/tx/${send.txHash}` : null,
    };
  }
  return {
    enabled: deps.config.claims.enabled && deps.treasury !== null,
    amount: deps.config.claims.amountTokens,
    nextClaimAt: last ? new Date(last.createdAt.getTime() + DAY_MS).toISOString() : null,
    lastClaim,
  };
}

/** One free claim: at most one per 24 h per account, wallet, device and IP, within the daily budget. */
export async function claim(deps: ClaimsDeps, who: Who): Promise<ClaimStatus> {
  if (!deps.config.claims.enabled) {
    throw new AppError(
      "FORBIDDEN",
      "Claiming test CPXTB is switched off on this server; you can claim again once the operator switches it back on.",
    );
  }
  if (!deps.chain || !deps.treasury) {
    throw new AppError("SERVICE_UNAVAILABLE", "Claiming is unavailable: no treasury is configured.");
  }
  const { chain, treasury } = deps;
  const wallet = getAddress(who.walletAddress);
  const [owned] = await deps.db
    .select({ id: userWallets.id })
    .from(userWallets)
    .where(
      and(eq(userWallets.userId, who.userId), sql`lower(${userWallets.address}) = ${wallet.toLowerCase()}`),
    );
  const [managed] = owned
    ? [owned]
    : await deps.db
        .select({ id: managedWallets.userId })
        .from(managedWallets)
        .where(
          and(
            eq(managedWallets.userId, who.userId),
            sql`lower(${managedWallets.address}) = ${wallet.toLowerCase()}`,
          ),
        );
  if (!managed) {
    throw new AppError(
      "FORBIDDEN",
      "Link this wallet to your account first (sign in with it, or link it in your profile), or use your account's managed wallet.",
      { reason: "wallet_not_linked" },
    );
  }
  const amount = parseUnits(deps.config.claims.amountTokens, chain.token.decimals);
  const budget = parseUnits(deps.config.claims.dailyBudgetTokens, chain.token.decimals);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIMS_LOCK})`);
    const last = await lastClaimOf(tx, { ...who, walletAddress: wallet }, new Date(now.getTime() - DAY_MS));
    if (last) {
      const next = new Date(last.createdAt.getTime() + DAY_MS);
      throw new AppError(
        "CONFLICT",
        `Already claimed in the last 24 hours. You can claim again at ${at(next)}.`,
        { reason: "cooldown", nextClaimAt: next.toISOString() },
      );
    }
    const [spent] = await tx
      .select({ total: sql<string>`coalesce(sum(${tokenClaims.amount}), 0)::text` })
      .from(tokenClaims)
      .where(gte(tokenClaims.createdAt, startOfUtcDay(now)));
    if (BigInt(spent?.total ?? "0") + amount > budget) {
      const next = new Date(startOfUtcDay(now).getTime() + DAY_MS);
      throw new AppError("CONFLICT", `Today's claim budget is used up. You can claim again at ${at(next)}.`, {
        reason: "budget_used",
        nextClaimAt: next.toISOString(),
      });
    }
    const id = createId("clm");
    await tx.insert(tokenClaims).values({
      id,
      userId: who.userId,
      walletAddress: wallet,
      deviceId: who.deviceId,
      ip: who.ip,
      chainId: chain.chainId,
      amount,
      createdAt: now,
    });
    await treasury.enqueue(tx, { kind: "claim", refId: id, to: wallet, amount });
  });
  return claimStatus(deps, { ...who, walletAddress: wallet });
}
