import { describe, expect, it } from "vitest";
import { groupedAmount, networkName } from "./network-name";

describe("networkName", () => {
  it("names known networks and the development chain, never by number alone", () => {
    expect(networkName(8453)).toBe("Base");
    expect(networkName(31337)).toBe("Local development chain");
    const dev = { chainId: 1337, chainName: "CPXTB Development Chain", development: true };
    expect(networkName(1337, dev)).toBe("Local development chain");
    const custom = { chainId: 777, chainName: "Shop Chain", development: false };
    expect(networkName(777, custom)).toBe("Shop Chain");
    expect(networkName(778, custom)).toBe("an unnamed network (chain ID 778)");
  });
});

describe("groupedAmount", () => {
  it("groups thousands and cuts decimals without rounding through a float", () => {
    expect(groupedAmount("1000000.000000000000000000")).toBe("1,000,000");
    expect(groupedAmount("12345.678912345")).toBe("12,345.6789");
    expect(groupedAmount("0.5")).toBe("0.5");
    expect(groupedAmount("0012.10")).toBe("12.1");
  });
});
