import { beforeEach, describe, expect, it } from "vitest";
import { isWeb3AuthAddress, web3AuthEnabled } from "@/lib/web3-auth-gate";
import {
  emergencyUser,
  FALLBACK_BALANCE,
  fallbackUser,
  parseStoredSocialUser,
  readStoredSocialUser,
  SOCIAL_USER_STORAGE_KEY,
  type StoredSocialUser,
  writeStoredSocialUser,
} from "./social-storage";

const account: StoredSocialUser = {
  userInfo: { name: "Ada Lovelace", email: "ada@example.com", provider: "google" },
  walletAddress: "0x1234567890abcdef1234567890ABCDEF12345678",
  balance: "12.5",
  mode: "account",
};

beforeEach(() => localStorage.clear());

describe("stored social-login user (spec sections 3 and 4)", () => {
  it("parses a well-formed record, and an older one without a mode as an account", () => {
    expect(parseStoredSocialUser(JSON.stringify(account))).toEqual(account);
    const { mode: _mode, ...older } = account;
    expect(parseStoredSocialUser(JSON.stringify(older))).toEqual(account);
  });

  it.each([
    ["no record", null],
    ["not JSON", "{not json"],
    ["JSON but not an object", "[1,2]"],
    ["null", "null"],
    ["no userInfo", JSON.stringify({ ...account, userInfo: undefined })],
    [
      "unknown provider",
      JSON.stringify({ ...account, userInfo: { ...account.userInfo, provider: "myspace" } }),
    ],
    ["name not a string", JSON.stringify({ ...account, userInfo: { ...account.userInfo, name: 7 } })],
    ["bad address", JSON.stringify({ ...account, walletAddress: "0x1234" })],
    ["balance a number", JSON.stringify({ ...account, balance: 12.5 })],
    ["balance in scientific notation", JSON.stringify({ ...account, balance: "1e21" })],
    ["negative balance", JSON.stringify({ ...account, balance: "-1" })],
    ["unknown mode", JSON.stringify({ ...account, mode: "admin" })],
    [
      "emergency user with an address",
      JSON.stringify({ ...emergencyUser("apple"), walletAddress: account.walletAddress }),
    ],
    [
      "far too long",
      JSON.stringify({ ...account, userInfo: { ...account.userInfo, name: "x".repeat(20_000) } }),
    ],
  ])("refuses %s", (_name, raw) => {
    expect(parseStoredSocialUser(raw)).toBeNull();
  });

  it("restores a stored record and deletes a corrupt one", () => {
    writeStoredSocialUser(account);
    expect(readStoredSocialUser()).toEqual(account);
    localStorage.setItem(SOCIAL_USER_STORAGE_KEY, '{"userInfo":');
    expect(readStoredSocialUser()).toBeNull();
    expect(localStorage.getItem(SOCIAL_USER_STORAGE_KEY)).toBeNull();
  });

  it("the fallback and emergency users round-trip and are marked as demos (PRODUCT.md decision 3)", () => {
    const demo = fallbackUser("twitter");
    expect(demo.mode).toBe("demo");
    expect(demo.balance).toBe(FALLBACK_BALANCE);
    expect(demo.walletAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect(fallbackUser("twitter").walletAddress).not.toBe(demo.walletAddress);
    writeStoredSocialUser(demo);
    expect(readStoredSocialUser()).toEqual(demo);
    const emergency = emergencyUser("apple");
    writeStoredSocialUser(emergency);
    expect(readStoredSocialUser()).toEqual({ ...emergency, mode: "emergency", walletAddress: "" });
  });
});

describe("web3 login gate (spec section 1)", () => {
  it("is off unless the address says enableWeb3Auth=true", () => {
    expect(web3AuthEnabled("")).toBe(false);
    expect(web3AuthEnabled("?enableWeb3Auth=1")).toBe(false);
    expect(web3AuthEnabled("?x=1&enableWeb3Auth=true")).toBe(true);
  });
  it("knows the provider's addresses", () => {
    expect(isWeb3AuthAddress("https://auth.web3auth.io/v9/start")).toBe(true);
    expect(isWeb3AuthAddress(new URL("https://app.openlogin.com/"))).toBe(true);
    expect(isWeb3AuthAddress("/api/social-auth/google")).toBe(false);
    expect(isWeb3AuthAddress(undefined)).toBe(false);
  });
});
