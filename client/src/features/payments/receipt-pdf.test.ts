import { describe, expect, it } from "vitest";
import { groupedHash } from "./receipt-pdf";

describe("a transaction hash on the receipt", () => {
  it("is two lines of eight groups of four digits, never a letter on a line of its own", () => {
    const hash = `0x${"0123456789abcdef".repeat(4)}`;
    const lines = groupedHash(hash).split("\n");
    expect(lines).toEqual([
      "0x0123 4567 89ab cdef 0123 4567 89ab cdef",
      "0123 4567 89ab cdef 0123 4567 89ab cdef",
    ]);
    expect(lines.join("").replaceAll(" ", "")).toBe(hash);
  });
});

describe("the receipt in the payer's language", () => {
  it("is made in every language, in English for those the standard fonts cannot draw", async () => {
    const { loadMessages } = await import("@/i18n/i18n");
    const { i18n } = await import("@lingui/core");
    const { createReceiptPdf } = await import("./receipt-pdf");
    const payment = {
      reference: "r".repeat(24),
      status: "completed",
      merchant: { name: "Café Ödün", logoUrl: null, website: null },
      token: { symbol: "CPXTB", address: `0x${"1".repeat(40)}` },
      amountDue: "12.000821",
      amountReceived: "12.000821",
      amountUsd: "4.50",
      amountReceivedUsd: "4.50",
      description: "Espresso",
      orderId: null,
      completedAt: "2026-11-27T03:00:00.000Z",
      receivingAddress: `0x${"2".repeat(40)}`,
      txHashes: [`0x${"ab".repeat(32)}`],
    } as unknown as Parameters<typeof createReceiptPdf>[0]["payment"];
    for (const locale of ["fr", "tr", "zh-CN", "ar"] as const) {
      await loadMessages(locale, ["pay"]);
      i18n.activate(locale);
      const bytes = await createReceiptPdf({
        payment,
        network: "Base",
        receiptUrl: "https://x.example",
        locale,
      });
      expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    }
  });
});
