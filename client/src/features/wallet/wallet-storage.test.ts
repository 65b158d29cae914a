import { beforeEach, describe, expect, it } from "vitest";
import { describeWalletError, walletErrorCode } from "./wallet-errors";
import {
  clearWalletKeys,
  deviceIdKey,
  displayBalance,
  LAST_POSITIVE_BALANCE_KEY,
  lastClaimKey,
  rememberBalance,
} from "./wallet-storage";

beforeEach(() => localStorage.clear());

describe("last known positive balance (spec section 4)", () => {
  it("shows the last positive balance while refreshing a stored 0.0", () => {
    rememberBalance("12.5");
    rememberBalance("0");
    expect(localStorage.getItem(LAST_POSITIVE_BALANCE_KEY)).toBe("12.5");
    expect(displayBalance("0.0", true)).toBe("12.5");
    expect(displayBalance("0", false)).toBe("0");
    expect(displayBalance("3", true)).toBe("3");
  });
  it("clears the per-wallet keys on disconnect", () => {
    const a = "0xAbCdEf0000000000000000000000000000000001";
    localStorage.setItem(deviceIdKey(a), "dev");
    localStorage.setItem(lastClaimKey(a), "1");
    clearWalletKeys(a);
    expect(localStorage.getItem(deviceIdKey(a))).toBeNull();
    expect(localStorage.getItem(lastClaimKey(a))).toBeNull();
  });
});

describe("wallet errors", () => {
  it("finds 4001 and 4902 through wrappers", () => {
    expect(walletErrorCode({ code: -1, cause: { code: 4001 } })).toBe(4001);
    expect(walletErrorCode({ code: -32603, data: { originalError: { code: 4902 } } })).toBe(4902);
    expect(describeWalletError({ code: 4001 })).toMatch(/rejected/);
  });
});
