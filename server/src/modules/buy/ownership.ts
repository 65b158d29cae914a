import type { BuyWalletProof } from "@common/buy.ts";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { getAddress, verifyMessage } from "viem";
import type { DbOrTx } from "../../db/client.ts";
import { type buyOrders, buyWalletChallenges, managedWallets, userWallets } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { createId, createToken } from "../../lib/ids.ts";
import { findLiveSessionByTokenHash } from "../auth/repository.ts";
import { hashToken, resolveAuth, SESSION_COOKIE } from "../auth/session.ts";

/**
 * Who owns a buy order (decision 013): the signed-in account that created it, or — signed out — the browser that
 * did, by a random owner token in an httpOnly cookie (only its hash is stored). Nobody else reads it, follows it
 * live, submits its payment or captures it.
 */
export const OWNER_COOKIE = "cpxtb_buyer";
const OWNER_COOKIE_TTL_MS = 90 * 24 * 60 * 60 * 1000;
const CHALLENGE_TTL_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export type Buyer = { userId: string | null; ownerTokenHash: string | null };

type OrderOwner = Pick<typeof buyOrders.$inferSelect, "userId" | "ownerTokenHash">;

/** The owner key a challenge is bound to. */
const ownerKey = (b: Buyer) => (b.userId ? `user:${b.userId}` : `owner:${b.ownerTokenHash}`);

function cookieHash(cookies: Readonly<Record<string, string | undefined>>): string | null {
  const token = cookies[OWNER_COOKIE];
  return token && TOKEN.test(token) ? hashToken(token) : null;
}

/**
 * The buyer of this request. `create`: a signed-out browser without an owner cookie is given one (creating an
 * order or a challenge); otherwise it has no owner token and owns nothing.
 */
export async function buyerOf(
  db: DbOrTx,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { create: boolean },
): Promise<Buyer> {
  const auth = await resolveAuth(db, request, reply);
  if (auth) return { userId: auth.user.id, ownerTokenHash: null };
  const existing = cookieHash(request.cookies);
  if (existing || !options.create) return { userId: null, ownerTokenHash: existing };
  const token = createToken();
  reply.setCookie(OWNER_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: reply.server.secureCookies,
    maxAge: OWNER_COOKIE_TTL_MS / 1000,
  });
  return { userId: null, ownerTokenHash: hashToken(token) };
}

/** The buyer of a /ws connection, from the cookies of its upgrade request. */
export async function buyerOfConnection(
  db: DbOrTx,
  cookies: Readonly<Record<string, string | undefined>>,
  now: Date,
): Promise<Buyer> {
  const token = cookies[SESSION_COOKIE];
  const session =
    token && token.length <= 100 ? await findLiveSessionByTokenHash(db, hashToken(token), now) : undefined;
  if (session) return { userId: session.user.id, ownerTokenHash: null };
  return { userId: null, ownerTokenHash: cookieHash(cookies) };
}

/**
 * An order made signed in is its account's alone; one made signed out is the creating browser's alone (signing
 * in there later keeps it readable in that browser: the cookie stays).
 */
export function owns(buyer: Buyer, order: OrderOwner): boolean {
  if (order.userId) return buyer.userId === order.userId;
  return order.ownerTokenHash !== null && buyer.ownerTokenHash === order.ownerTokenHash;
}

/** A message the wallet signs to show the buyer controls it; bound to this buyer, spent once. */
export async function createBuyWalletChallenge(
  db: DbOrTx,
  buyer: Buyer,
  rawAddress: string,
  site: string,
  now: Date,
) {
  const address = getAddress(rawAddress);
  const nonce = createToken(18);
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  const message = [
    `${site}: prove that you control this wallet to buy CPXTB with it.`,
    "",
    `Wallet: ${address}`,
    `Nonce: ${nonce}`,
    `Issued at: ${now.toISOString()}`,
    "",
    "Signing this message costs nothing and sends no transaction.",
  ].join("\n");
  // Challenges expired a day ago are of no use to anyone: the table stays small.
  await db
    .delete(buyWalletChallenges)
    .where(lt(buyWalletChallenges.expiresAt, new Date(now.getTime() - DAY_MS)));
  await db.insert(buyWalletChallenges).values({
    id: createId("bwc"),
    owner: ownerKey(buyer),
    address,
    nonce,
    message,
    expiresAt,
    createdAt: now,
  });
  return { address, nonce, message, expiresAt: expiresAt.toISOString() };
}

/** Whether the wallet is linked to the account (Sign in with Ethereum, profile) or is its managed wallet. */
async function isAccountWallet(db: DbOrTx, userId: string, address: string): Promise<boolean> {
  const lower = address.toLowerCase();
  const [linked] = await db
    .select({ id: userWallets.id })
    .from(userWallets)
    .where(and(eq(userWallets.userId, userId), sql`lower(${userWallets.address}) = ${lower}`));
  if (linked) return true;
  const [managed] = await db
    .select({ id: managedWallets.userId })
    .from(managedWallets)
    .where(and(eq(managedWallets.userId, userId), sql`lower(${managedWallets.address}) = ${lower}`));
  return managed !== undefined;
}

/**
 * The buyer must control the order's wallet: it is the signed-in account's own (linked or managed), or the
 * request carries a signature of a challenge issued to this buyer for that wallet. Without it, anyone could
 * open an order for another person's wallet and claim their payment.
 */
export async function proveBuyerWallet(
  db: DbOrTx,
  buyer: Buyer,
  rawAddress: string,
  proof: BuyWalletProof | undefined,
  now: Date,
): Promise<void> {
  const address = getAddress(rawAddress);
  if (buyer.userId && (await isAccountWallet(db, buyer.userId, address))) return;
  if (!proof) {
    throw new AppError(
      "FORBIDDEN",
      "Prove that this wallet is yours: sign the message from POST /api/buy/wallet-challenge with it, or link the wallet to your account.",
      { reason: "wallet_proof_required" },
    );
  }
  const [challenge] = await db
    .update(buyWalletChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(buyWalletChallenges.nonce, proof.nonce),
        eq(buyWalletChallenges.owner, ownerKey(buyer)),
        isNull(buyWalletChallenges.usedAt),
        gt(buyWalletChallenges.expiresAt, now),
      ),
    )
    .returning();
  if (!challenge) {
    throw new AppError(
      "UNPROCESSABLE",
      "The signature request is unknown, used or expired. Ask for a new one.",
      { reason: "signature_request_invalid" },
    );
  }
  if (challenge.address !== address) {
    throw new AppError("UNPROCESSABLE", "The signature request was issued for another wallet address.", {
      reason: "signature_other_wallet",
    });
  }
  let valid = false;
  try {
    valid = await verifyMessage({
      address,
      message: challenge.message,
      signature: proof.signature as `0x${string}`,
    });
  } catch {
    valid = false;
  }
  if (!valid)
    throw new AppError("UNPROCESSABLE", "The signature was not made by that wallet.", {
      reason: "signature_invalid",
    });
}
