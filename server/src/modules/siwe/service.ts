import { SIWE_EXTRA_CHAIN_IDS, SIWE_NONCE_TTL_MS, type SiweSignedMessage } from "@common/siwe.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type Address, getAddress, type Hex, verifyMessage } from "viem";
import { generateSiweNonce, parseSiweMessage, type SiweMessage, validateSiweMessage } from "viem/siwe";
import type { Chain } from "../../chain/service.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import { acceptedHosts } from "../../lib/public-origin.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import * as accounts from "../auth/repository.ts";
import { isUniqueViolation } from "../auth/service.ts";
import type { Auth } from "../auth/session.ts";
import { completeFirstFactor } from "../two-factor/sign-in.ts";
import * as repo from "./repository.ts";

export type SiweDeps = { db: Db; state: SharedState; chain: Chain | null; config: Config };

/** A wallet's clock may run a little ahead of ours. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;
const nonceKey = (nonce: string) => `siwe:nonce:${nonce}`;
const usedKey = (nonce: string) => `siwe:used:${nonce}`;

export async function issueNonce(deps: SiweDeps) {
  // 96 random alphanumeric characters (EIP-4361 asks for at least 8); stored so any instance can check it.
  const nonce = generateSiweNonce();
  await deps.state.set(nonceKey(nonce), "1", SIWE_NONCE_TTL_MS);
  return { nonce, expiresAt: new Date(Date.now() + SIWE_NONCE_TTL_MS).toISOString() };
}

/** The token's chain plus mainnet and Sepolia: the chains the wallet control offers (docs/chain.md). */
export function acceptedChainIds(deps: SiweDeps): number[] {
  const tokenChainId = deps.chain?.chainId ?? deps.config.chain.chainId;
  return [tokenChainId, ...SIWE_EXTRA_CHAIN_IDS.filter((id) => id !== tokenChainId)];
}

/**
 * The message must be for this site's public origin (decision 010): its host as `domain` and that origin as
 * `uri`. Never the request's Host header, which whoever relays a signature chooses.
 */
function forThisSite(config: Config, domain: string, uri: string): boolean {
  const host = domain.toLowerCase();
  if (!acceptedHosts(config).includes(host)) return false;
  let origin: string;
  try {
    origin = new URL(uri).origin;
  } catch {
    return false;
  }
  return origin === `${new URL(config.publicUrl).protocol}//${host}`;
}

const fail = (message: string) => new AppError("UNAUTHENTICATED", message);

/**
 * Checks a signed EIP-4361 message completely and consumes its nonce: domain, chain, time window, nonce
 * (issued here, unused), then the signature (an EOA's by recovery; otherwise a contract wallet's through
 * EIP-1271 / ERC-6492 on the token's chain). Answers the proven address and the message's chain.
 */
export async function verifySignedMessage(
  deps: SiweDeps,
  _request: FastifyRequest,
  input: SiweSignedMessage,
): Promise<{ address: Address; chainId: number }> {
  const fields = parseSiweMessage(input.message) as Partial<SiweMessage>;
  const { address, domain, chainId, nonce, uri, version, issuedAt } = fields;
  if (!address || !domain || !chainId || !nonce || !uri || version !== "1" || !issuedAt) {
    throw new AppError("BAD_REQUEST", "This is not a complete Sign-In with Ethereum (EIP-4361) message.");
  }
  if (!forThisSite(deps.config, domain, uri)) {
    throw fail(`This message is for ${domain}, not for this site. Sign in from this site's own page.`);
  }
  const chains = acceptedChainIds(deps);
  if (!chains.includes(chainId)) {
    throw fail(`Chain ${chainId} is not accepted for sign-in. Switch your wallet to chain ${chains[0]}.`);
  }
  const now = new Date();
  if (Number.isNaN(issuedAt.getTime()) || issuedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw fail("The message's issue time is in the future. Check your device's clock.");
  }
  if (fields.expirationTime && !(fields.expirationTime.getTime() > now.getTime())) {
    throw fail("This sign-in message has expired. Sign a new one.");
  }
  if (fields.notBefore && !(fields.notBefore.getTime() <= now.getTime())) {
    throw fail("This sign-in message is not valid yet.");
  }
  const usedOrExpired = "This sign-in message was already used or has expired. Sign a new one.";
  if ((await deps.state.get(nonceKey(nonce))) === null) throw fail(usedOrExpired);
  // viem's own check of the whole message (nonce format, version, address, times) as a second opinion.
  if (!validateSiweMessage({ message: fields, domain, nonce, time: now })) {
    throw new AppError("BAD_REQUEST", "This Sign-In with Ethereum message is not valid.");
  }

  const signature = input.signature as Hex;
  if (!(await signatureMatches(deps, address, chainId, input.message, signature))) {
    throw fail("The signature does not match the wallet address in the message.");
  }
  // Only the first of concurrent requests with this nonce gets past here (atomic on Redis too).
  if (!(await deps.state.setIfAbsent(usedKey(nonce), "1", SIWE_NONCE_TTL_MS))) throw fail(usedOrExpired);
  await deps.state.delete(nonceKey(nonce));
  return { address: getAddress(address), chainId };
}

async function signatureMatches(
  deps: SiweDeps,
  address: Address,
  chainId: number,
  message: string,
  signature: Hex,
): Promise<boolean> {
  const recovered = await verifyMessage({ address, message, signature }).catch(() => false);
  if (recovered) return true;
  // Not an EOA signature: a contract wallet can only be asked on the chain we have a node for.
  if (!deps.chain || chainId !== deps.chain.chainId) return false;
  try {
    return await deps.chain.client.verifyMessage({ address, message, signature });
  } catch {
    throw new AppError("BAD_GATEWAY", "Could not reach the blockchain to check the wallet's signature.");
  }
}

/** `wallet_<first 8 hex digits>`, with `_2`, `_3`… when taken. */
async function freeWalletUsername(deps: SiweDeps, address: Address): Promise<string> {
  const base = `wallet_${address.slice(2, 10).toLowerCase()}`;
  const taken = new Set((await repo.findUsernamesWithPrefix(deps.db, base)).map((u) => u.toLowerCase()));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

/** The account that owns the address; created (with the wallet linked) on its first sign-in. */
async function findOrCreateWalletUser(deps: SiweDeps, address: Address, chainId: number) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const linked = await repo.findWalletByAddress(deps.db, address);
    if (linked) {
      const user = await accounts.findUserById(deps.db, linked.userId);
      if (user) return { user, created: false };
    }
    const username = await freeWalletUsername(deps, address);
    try {
      const user = await deps.db.transaction(async (tx) => {
        const created = await accounts.insertUser(tx, { id: createId("usr"), username, passwordHash: null });
        await repo.insertUserWallet(tx, {
          id: createId("wal"),
          userId: created.id,
          address,
          chainId,
          provenBy: "siwe_sign_in",
        });
        return created;
      });
      return { user, created: true };
    } catch (error) {
      // Another first sign-in of this address, or a new user who took the name, won the race: look again.
      if (
        isUniqueViolation(error, "user_wallets_address_lower_key") ||
        isUniqueViolation(error, "users_username_lower_key")
      ) {
        continue;
      }
      throw error;
    }
  }
  throw new AppError("CONFLICT", "Could not create an account for this wallet. Please try again.");
}

export async function signIn(
  deps: SiweDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  input: SiweSignedMessage,
) {
  const { address, chainId } = await verifySignedMessage(deps, request, input);
  const { user, created } = await findOrCreateWalletUser(deps, address, chainId);
  // An account with a second factor gets the code step here too (decision 019): a wallet is one factor.
  const result = await completeFirstFactor(deps, request, reply, user, "siwe");
  request.log.info({ userId: user.id, created }, "signed in with Ethereum");
  return result;
}

export async function linkWallet(
  deps: SiweDeps,
  request: FastifyRequest,
  auth: Auth,
  input: SiweSignedMessage,
) {
  const { address, chainId } = await verifySignedMessage(deps, request, input);
  try {
    await repo.insertUserWallet(deps.db, {
      id: createId("wal"),
      userId: auth.user.id,
      address,
      chainId,
      provenBy: "siwe_link",
    });
  } catch (error) {
    if (!isUniqueViolation(error, "user_wallets_address_lower_key")) throw error;
    const owner = await repo.findWalletByAddress(deps.db, address);
    // Linking one's own wallet again changes nothing.
    if (owner?.userId !== auth.user.id) {
      throw new AppError("CONFLICT", "This wallet is already linked to another account.");
    }
  }
  return repo.listUserWallets(deps.db, auth.user.id);
}

export async function unlinkWallet(deps: SiweDeps, auth: Auth, address: string) {
  const wallets = await repo.listUserWallets(deps.db, auth.user.id);
  const target = wallets.find((w) => w.address.toLowerCase() === address.toLowerCase());
  if (!target) throw new AppError("NOT_FOUND", "This wallet is not linked to your account.");
  if (wallets.length === 1 && auth.user.passwordHash === null) {
    throw new AppError(
      "CONFLICT",
      "This wallet is how you sign in. Set a password or link another wallet before removing it.",
    );
  }
  await repo.deleteUserWallet(deps.db, auth.user.id, target.address);
  return repo.listUserWallets(deps.db, auth.user.id);
}

export function toLinkedWallet(row: repo.UserWalletRow) {
  return {
    address: row.address,
    chainId: row.chainId,
    provenBy: row.provenBy,
    createdAt: row.createdAt.toISOString(),
  };
}
