import { secp256k1 } from "@noble/curves/secp256k1";
import { mnemonicToSeedSync } from "@scure/bip39";
import { type Address, getAddress, toHex } from "viem";
import { HDKey, type PrivateKeyAccount, privateKeyToAccount, publicKeyToAddress } from "viem/accounts";
import type { WalletConfig } from "../../config-social.ts";
import { loadOrCreateSecret } from "../../lib/secrets.ts";

/** BIP-44 for Ethereum: m/44'/60'/0'/0/<index>. The hardened part is derived once; addresses need no private key. */
const ACCOUNT_PATH = "m/44'/60'/0'/0";

export type ManagedKeys = {
  /** The address of wallet `index`, from the public extended key only. */
  addressOf(index: number): Address;
  /**
   * Runs `use` with the signing account of wallet `index`. The key is derived for this call and not kept: callers
   * sign inside `use` and must not let the account escape.
   */
  withSigner<T>(index: number, use: (account: PrivateKeyAccount) => Promise<T>): Promise<T>;
};

function seedBytes(seed: string): Uint8Array {
  if (/^0x[0-9a-fA-F]+$/.test(seed)) return Buffer.from(seed.slice(2), "hex");
  if (/\s/.test(seed)) return mnemonicToSeedSync(seed.trim());
  // A secret generated under DATA_DIR: 32 random bytes, base64url.
  return Buffer.from(seed, "base64url");
}

export function createManagedKeys(seed: string): ManagedKeys {
  const bytes = seedBytes(seed);
  const accountNode = HDKey.fromMasterSeed(bytes).derive(ACCOUNT_PATH);
  const publicNode = HDKey.fromExtendedKey(accountNode.publicExtendedKey);
  // Only the private parent stays in memory (like the configured seed itself); children are derived per signature.
  return {
    addressOf(index) {
      const child = publicNode.deriveChild(index);
      return getAddress(publicKeyToAddress(toHex(uncompressedKey(child))));
    },
    async withSigner(index, use) {
      const child = accountNode.deriveChild(index);
      const account = privateKeyToAccount(toHex(child.privateKey!));
      child.wipePrivateData();
      return use(account);
    },
  };
}

function uncompressedKey(node: HDKey): Uint8Array {
  // viem's publicKeyToAddress wants the 65-byte uncompressed key; HDKey keeps the 33-byte compressed one.
  return secp256k1Uncompressed(node.publicKey!);
}

function secp256k1Uncompressed(compressed: Uint8Array): Uint8Array {
  return secp256k1.ProjectivePoint.fromHex(compressed).toRawBytes(false);
}

/** The master seed: WALLET_MASTER_SEED, or (development only) one generated under DATA_DIR, said in the log. */
export function resolveMasterSeed(
  wallet: WalletConfig,
  dataDir: string,
  log: { warn: (obj: object, msg: string) => void },
): string | null {
  if (wallet.masterSeed) return wallet.masterSeed;
  if (!wallet.allowGeneratedSeed) return null;
  const { secret, created, path } = loadOrCreateSecret(dataDir, "wallet-master-seed");
  log.warn(
    { path },
    created
      ? "WALLET_MASTER_SEED is not set: generated a development master seed for managed wallets (never use it with real funds)"
      : "WALLET_MASTER_SEED is not set: using the development master seed under DATA_DIR",
  );
  return secret;
}
