import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMessages, t } from "@/i18n/i18n";
import de from "@/locales/de/pay.json";
import { payerNetworkName } from "./network-words";

beforeAll(async () => {
  for (const locale of ["en", "de", "ar"] as const) await loadMessages(locale, ["pay"]);
});

const devChain = { chainId: 31337, chainName: "Anvil", development: true };

describe("payerNetworkName: the network in the payer's words (issue 37)", () => {
  it("English", () => {
    i18n.activate("en");
    expect(payerNetworkName(t, 8453)).toBe("Base");
    expect(payerNetworkName(t, 31337, devChain)).toBe("Local development chain");
    expect(payerNetworkName(t, 999)).toBe("an unnamed network (chain ID 999)");
  });

  it("German: Base stays Base, the local chain and an unnamed one in German", () => {
    i18n.activate("de");
    expect(payerNetworkName(t, 8453)).toBe("Base");
    expect(payerNetworkName(t, 31337, devChain)).toBe(de["pay.view.localChain"]);
    expect(payerNetworkName(t, 999)).toBe("ein unbenanntes Netzwerk (Chain-ID 999)");
  });

  it("Arabic", () => {
    i18n.activate("ar");
    expect(payerNetworkName(t, 1)).toBe("Ethereum");
    expect(payerNetworkName(t, 31337)).not.toContain("Local");
    expect(payerNetworkName(t, 999)).toBe("شبكة بلا اسم (معرّف السلسلة 999)");
  });
});
