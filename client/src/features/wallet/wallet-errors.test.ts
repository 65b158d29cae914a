import { describe, expect, it } from "vitest";
import { networkNameIn } from "@/lib/network-name";
import deSite from "@/locales/de/site.json";
import { describeWalletError, type WalletErrorWords } from "./wallet-errors";

// The header's wallet menu in the shell's language (issue 37): its toasts and the network it names.
const german: WalletErrorWords = {
  noWallet: deSite["site.wallet.error.noWallet"],
  rejected: deSite["site.wallet.error.rejected"],
  unknownNetwork: deSite["site.wallet.error.unknownNetwork"],
  incomplete: deSite["site.wallet.error.incomplete"],
};
const switchFailed = {
  name: "SwitchChainError",
  shortMessage: "An error occurred when attempting to switch chain.",
};

describe("the header wallet menu's words", () => {
  it("says an error it does not know as the wallet did in English, as 'not completed' in another language", () => {
    expect(describeWalletError(switchFailed)).toBe("An error occurred when attempting to switch chain.");
    expect(describeWalletError(switchFailed, german)).toBe(german.incomplete);
    expect(describeWalletError({ code: 4001 }, german)).toBe(german.rejected);
  });

  it("names the local development chain and an unnamed network in the reader's words, Base as Base", () => {
    const words = {
      localChain: deSite["site.wallet.localChain"],
      unnamedNetwork: (chainId: string) => deSite["site.wallet.unnamedNetwork"].replace("{chainId}", chainId),
    };
    const devChain = { chainId: 31337, chainName: "Anvil", development: true };
    expect(networkNameIn(words, 8453)).toBe("Base");
    expect(networkNameIn(words, 31337, devChain)).toBe("Lokale Entwicklungs-Chain");
    expect(networkNameIn(words, 999)).toBe("ein unbenanntes Netzwerk (Chain-ID 999)");
  });
});
