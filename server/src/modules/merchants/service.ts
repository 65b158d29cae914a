import type { CreateMerchantRequest, MemberRole, Merchant, UpdateMerchantRequest } from "@common/merchant.ts";
import { ALL_ROLES, MANAGER_ROLES } from "@common/team.ts";
import { getAddress, isAddress, verifyMessage } from "viem";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createId, createToken } from "../../lib/ids.ts";
import { type AuditContext, recordAudit } from "../audit/record.ts";
import { isUniqueViolation } from "../auth/service.ts";
import * as repo from "./repository.ts";

export const WALLET_CHALLENGE_TTL_MS = 10 * 60 * 1000;

export type MemberMerchant = repo.MerchantRow & { role: MemberRole; businessCount: number };

export function toMerchantResponse(row: MemberMerchant): Merchant {
  return {
    id: row.id,
    role: row.role,
    businessCount: row.businessCount,
    name: row.name,
    businessType: row.businessType as Merchant["businessType"],
    contactEmail: row.contactEmail,
    website: row.website,
    description: row.description,
    logoUrl: row.logoUrl,
    walletAddress: row.walletAddress,
    walletVerifiedAt: row.walletVerifiedAt.toISOString(),
    toleranceBps: row.toleranceBps,
    brandColor: row.brandColor,
    pageTheme: row.pageTheme,
    payLanguage: row.payLanguage,
    tipPresets: row.tipPresets,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Checks EIP-55 when the address is mixed case; returns it checksummed. */
export function checksummed(address: string): `0x${string}` {
  const mixed = address !== address.toLowerCase() && address !== address.toUpperCase().replace("0X", "0x");
  if (!isAddress(address, { strict: mixed })) {
    throw new AppError("VALIDATION_ERROR", "The wallet address has a wrong checksum (EIP-55).");
  }
  return getAddress(address);
}

export async function createWalletChallenge(
  db: Db,
  user: { id: string; username: string },
  rawAddress: string,
) {
  const address = checksummed(rawAddress);
  const nonce = createToken(18);
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + WALLET_CHALLENGE_TTL_MS);
  const message = [
    "CPXTB Pay: prove that you control this wallet to receive payments with it.",
    "",
    `Wallet: ${address}`,
    `Account: ${user.username}`,
    `Nonce: ${nonce}`,
    `Issued at: ${issuedAt.toISOString()}`,
    "",
    "Signing this message costs nothing and sends no transaction.",
  ].join("\n");
  await repo.insertWalletChallenge(db, {
    id: createId("wch"),
    userId: user.id,
    address,
    nonce,
    message,
    expiresAt,
  });
  return { address, nonce, message, expiresAt: expiresAt.toISOString() };
}

/** Spends the nonce (once, even if the signature turns out wrong) and checks the signature recovers `address`. */
async function verifyWalletProof(
  db: Db,
  userId: string,
  address: `0x${string}`,
  proof: { nonce: string; signature: string },
) {
  const challenge = await repo.consumeWalletChallenge(db, userId, proof.nonce, new Date());
  if (!challenge)
    throw new AppError(
      "UNPROCESSABLE",
      "The signature request is unknown, used or expired. Ask for a new one.",
    );
  if (challenge.address !== address) {
    throw new AppError("UNPROCESSABLE", "The signature request was issued for another wallet address.");
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
  if (!valid) throw new AppError("UNPROCESSABLE", "The signature was not made by that wallet.");
}

function duplicateAddress(error: unknown): never {
  if (isUniqueViolation(error, "merchants_wallet_address_lower_key")) {
    throw new AppError("CONFLICT", "Another business already receives payments at this wallet address.");
  }
  if (isUniqueViolation(error, "merchants_owner_id_key")) {
    throw new AppError("CONFLICT", "You already registered a business.");
  }
  throw error;
}

export async function registerMerchant(
  db: Db,
  ownerId: string,
  input: CreateMerchantRequest,
): Promise<MemberMerchant> {
  if (await repo.findMerchantByOwner(db, ownerId))
    throw new AppError("CONFLICT", "You already registered a business.");
  const walletAddress = checksummed(input.walletAddress);
  await verifyWalletProof(db, ownerId, walletAddress, input.proof);
  try {
    // The owner's membership row is written by the insert's trigger (migration 0016); the new business becomes
    // the one the owner acts for.
    const row = await repo.insertMerchant(db, {
      id: createId("mer"),
      ownerId,
      name: input.name,
      businessType: input.businessType,
      contactEmail: input.contactEmail,
      website: input.website ?? null,
      description: input.description ?? null,
      logoUrl: input.logoUrl ?? null,
      walletAddress,
      walletVerifiedAt: new Date(),
      toleranceBps: input.toleranceBps ?? 0,
      brandColor: input.brandColor ?? null,
      pageTheme: input.pageTheme ?? "auto",
      payLanguage: input.payLanguage ?? null,
      tipPresets: input.tipPresets ?? [],
    });
    await repo.setActiveMerchant(db, ownerId, row.id);
    const membership = await repo.findMembership(db, ownerId);
    return { ...row, role: "owner", businessCount: membership?.businessCount ?? 1 };
  } catch (error) {
    duplicateAddress(error);
  }
}

const ROLE_NAMES: Record<MemberRole, string> = { owner: "the owner", admin: "an admin", staff: "staff" };

/**
 * The business `userId` acts for, if their role is one of `roles` (decision 021): 404 without any business, 403
 * `FORBIDDEN` for a removed member or a role that may not do this, 403 `TWO_FACTOR_REQUIRED` when the business
 * requires a second factor the member has not set up. The queries that read the data check membership again.
 */
export async function requireMerchant(
  db: Db,
  userId: string,
  roles: readonly MemberRole[] = ALL_ROLES,
): Promise<MemberMerchant> {
  const found = await findMerchantOfMember(db, userId, roles);
  if (!found) throw new AppError("NOT_FOUND", "You have not registered a business yet.");
  return found;
}

/** As `requireMerchant`, but a user with no business at all (never a member of any) gets `null`. */
export async function findMerchantOfMember(
  db: Db,
  userId: string,
  roles: readonly MemberRole[] = ALL_ROLES,
): Promise<MemberMerchant | null> {
  const found = await repo.findMembership(db, userId);
  if (!found?.merchant || !found.role) {
    if (found?.activeMerchantId) {
      throw new AppError(
        "FORBIDDEN",
        "You are no longer a member of this business. Ask its owner to invite you again.",
      );
    }
    return null;
  }
  if (found.merchant.requireTwoFactor && !found.hasSecondFactor) {
    throw new AppError(
      "TWO_FACTOR_REQUIRED",
      "This business requires two-factor sign-in. Set up an authenticator app or a passkey in your profile first.",
    );
  }
  if (!roles.includes(found.role)) {
    throw new AppError(
      "FORBIDDEN",
      `As ${ROLE_NAMES[found.role]} of this business you cannot do this. Ask its owner or an admin.`,
    );
  }
  return { ...found.merchant, role: found.role, businessCount: found.businessCount };
}

export async function updateMerchant(
  db: Db,
  actor: AuditContext & { userId: string },
  /** The business as the route's access check found it (decision 021: owner or admin). */
  current: MemberMerchant,
  input: UpdateMerchantRequest,
) {
  const ownerId = actor.userId;
  const { proof, walletAddress: rawAddress, ...fields } = input;
  const values: Parameters<typeof repo.updateMerchantOfOwner>[2] = { ...fields };
  if (rawAddress) {
    const walletAddress = checksummed(rawAddress);
    if (walletAddress !== current.walletAddress) {
      if (!proof) throw new AppError("VALIDATION_ERROR", "A new wallet address needs a signature proof.");
      await verifyWalletProof(db, ownerId, walletAddress, proof);
      values.walletAddress = walletAddress;
      values.walletVerifiedAt = new Date();
    }
  }
  try {
    return await db.transaction(async (tx) => {
      const row = await repo.updateMerchantOfOwner(tx, { userId: ownerId, roles: MANAGER_ROLES }, values);
      if (!row) throw new AppError("FORBIDDEN", "You no longer have access to this business.");
      if (values.walletAddress) {
        await recordAudit(tx, actor, {
          action: "merchant.wallet_changed",
          businessId: row.id,
          target: values.walletAddress,
          metadata: { from: current.walletAddress, to: values.walletAddress },
        });
      }
      return { ...row, role: current.role, businessCount: current.businessCount };
    });
  } catch (error) {
    duplicateAddress(error);
  }
}
