import type { Locale } from "@common/locales";
import { i18n } from "@lingui/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadMessages } from "@/i18n/i18n";
import { drawnTexts, embeddedFonts, serveFontFiles } from "@/test/pdf-text";
import { createReceiptPdf, groupedHash } from "./receipt-pdf";

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

const payment = {
  reference: "r".repeat(24),
  status: "completed",
  merchant: { name: "Café Ödün", logoUrl: null, website: null },
  token: { symbol: "CPXTB", address: `0x${"1".repeat(40)}` },
  amountDue: "1234.000821",
  amountReceived: "1234.000821",
  amountUsd: "4.50",
  amountReceivedUsd: "4.50",
  description: "Espresso",
  orderId: null,
  completedAt: "2026-11-27T03:00:00.000Z",
  receivingAddress: `0x${"2".repeat(40)}`,
  txHashes: [`0x${"ab".repeat(32)}`],
} as unknown as Parameters<typeof createReceiptPdf>[0]["payment"];

async function receipt(locale: Locale, changes: Partial<typeof payment> = {}) {
  await loadMessages(locale, ["pay"]);
  i18n.activate(locale);
  const bytes = await createReceiptPdf({
    payment: { ...payment, ...changes },
    network: "Base",
    receiptUrl: `https://pay.example/payment/${payment.reference}`,
    locale,
  });
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
  return { bytes, drawn: await drawnTexts(bytes), words: (id: string) => i18n._(id) };
}

describe("the receipt in the payer's language", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("is written with the standard fonts in the Latin-1 languages: nothing fetched, no font embedded", async () => {
    const asked = serveFontFiles();
    for (const locale of ["en", "es", "pt-BR", "fr", "de", "id"] as const) {
      const { bytes, drawn, words } = await receipt(locale);
      expect(new Set(drawn.map((d) => d.font))).toEqual(new Set(["Helvetica", "Helvetica-Bold", "Courier"]));
      expect(drawn.map((d) => d.text)).toContain(words("pay.pdf.heading"));
      expect(await embeddedFonts(bytes)).toEqual([]);
    }
    expect(asked).toEqual([]);
  });

  it("is in Turkish with its own letters, the amounts exact", async () => {
    const asked = serveFontFiles();
    const { bytes, drawn } = await receipt("tr");
    expect((await embeddedFonts(bytes)).map((name) => name.replace(/-\d+$/, ""))).toEqual([
      "NotoSans-Regular",
      "NotoSans-Bold",
    ]);
    expect(asked.map((url) => url.split("/").at(-1))).toEqual([
      "noto-sans-latin-regular.ttf",
      "noto-sans-latin-bold.ttf",
    ]);
    const texts = drawn.map((d) => d.text);
    expect(texts).toContain("Café Ödün");
    expect(texts).toContain("Ödeme makbuzu");
    expect(texts).toContain("Ödenecek tutar");
    expect(texts).toContain("İşlem");
    expect(texts).toContain("1.234,000821 CPXTB");
    expect(drawn.find((d) => d.text === "Ödeme makbuzu")?.font).toMatch(/NotoSans/);
    expect(texts.join("")).not.toContain("?");
  });

  it("is in Chinese, and a name beyond the receipt's words is drawn from the common hanzi", async () => {
    const asked = serveFontFiles();
    const { drawn } = await receipt("zh-CN", {
      merchant: { name: "东京拉面馆", logoUrl: null, website: null },
    } as never);
    expect(asked.map((url) => url.split("/").at(-1))).toEqual([
      "noto-sans-sc-words-regular.ttf",
      "noto-sans-sc-words-bold.ttf",
      "noto-sans-sc-common-regular.ttf",
    ]);
    const texts = drawn.map((d) => d.text);
    for (const word of ["付款收据", "应付金额", "实付金额", "收款地址", "编号"])
      expect(texts).toContain(word);
    expect(texts).toContain("1,234.000821 CPXTB");
    expect(texts.join("")).toContain("东京拉面馆");
    expect(texts.join("")).not.toContain("?");
  });

  it("is in Arabic, right to left, with the amounts, addresses and reference left to right", async () => {
    serveFontFiles();
    const { drawn, words } = await receipt("ar", { description: "قهوة عربية" } as never);
    const texts = drawn.map((d) => d.text);
    // "Check it online at <url>": read from the right, so the address is drawn first (leftmost), then the words.
    const url = texts.indexOf(`https://pay.example/payment/${payment.reference}`);
    expect(url).toBeGreaterThan(-1);
    expect(texts[url + 1]?.trim()).toBe(words("pay.pdf.checkOnline").replace("{url}", "").trim());
    for (const word of ["إيصال الدفع", "المبلغ المستحق", "المدفوع إليه", "المرجع", "قهوة عربية"])
      expect(texts).toContain(word);
    expect(drawn.find((d) => d.text === "إيصال الدفع")?.font).toMatch(/NotoSansArabic/);
    expect(texts).toContain("1,234.000821 CPXTB");
    expect(texts).toContain(payment.receivingAddress);
    expect(texts).toContain(payment.reference);
    expect(texts.join("")).not.toContain("?");
  });
});
