/** Local-storage keys owned by the wallet feature (spec section 3). */
export const LAST_POSITIVE_BALANCE_KEY = "cpxtb_last_positive_balance";
export const deviceIdKey = (address: string) => `cpxtb_device_id_${address.toLowerCase()}`;
export const lastClaimKey = (address: string) => `cpxtb_last_claim_${address.toLowerCase()}`;

function isZero(balance: string | null | undefined): boolean {
  return balance == null || /^0+(\.0*)?$/.test(balance.trim());
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Remembers a positive balance under its own key; zero never overwrites it. */
export function rememberBalance(balance: string) {
  if (!isZero(balance)) safeStorage()?.setItem(LAST_POSITIVE_BALANCE_KEY, balance);
}

/**
 * What to show: a stored balance of 0.0 while a refresh is pending is replaced by the last known positive one
 * (spec section 4); otherwise the balance itself.
 */
export function displayBalance(balance: string | null, refreshing: boolean): string | null {
  if (isZero(balance) && refreshing) {
    const last = safeStorage()?.getItem(LAST_POSITIVE_BALANCE_KEY);
    if (last && !isZero(last)) return last;
  }
  return balance;
}

/** On disconnect: the per-wallet device id and last-claim time go with the wallet. */
export function clearWalletKeys(address: string | undefined) {
  if (!address) return;
  const storage = safeStorage();
  storage?.removeItem(deviceIdKey(address));
  storage?.removeItem(lastClaimKey(address));
}

function newDeviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dev_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The spec's per-wallet device id and last claim time for "Claim Test CPXTB Tokens" (cleared on disconnect): one
 * id per wallet on this device, made on first use.
 */
export const claimDevice = {
  deviceIdFor(address: string): string {
    const store = safeStorage();
    const key = deviceIdKey(address);
    const stored = store?.getItem(key);
    if (stored && /^[A-Za-z0-9_-]{8,64}$/.test(stored)) return stored;
    const id = newDeviceId();
    store?.setItem(key, id);
    return id;
  },
  rememberClaim(address: string, at: string) {
    safeStorage()?.setItem(lastClaimKey(address), at);
  },
};
