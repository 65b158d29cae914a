import type { Locale } from "@common/locales";
import { i18n } from "@lingui/core";
import { PDFDocument } from "pdf-lib";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadMessages } from "@/i18n/i18n";
import { drawnTexts, serveFontFiles } from "@/test/pdf-text";
import { createPosterPdf } from "./poster";

const payment = {
  reference: "AbCdEfGhIjKlMnOpQrStUv",
  amountDue: "1234.500123",
  amountUsd: "12.35",
  paymentUri:
    "ethereum:0x96a0Cc3c0fc5d07818E763E1B25bc78ab4170D1b@8453/transfer?address=0x1111111111111111111111111111111111111111&uint256=1234500123000000000000",
  paymentUrl: "https://pay.example/pay/AbCdEfGhIjKlMnOpQrStUv",
  description: "Two flat whites",
  expiresAt: "2026-11-22T05:00:00.000Z",
};

async function speak(locale: Locale) {
  await loadMessages(locale, ["merchant"]);
  i18n.activate(locale);
}

describe("payment poster", () => {
  beforeEach(() => speak("en"));

  it("is a one-page PDF titled with the merchant", async () => {
    const bytes = await createPosterPdf({
      payment,
      merchant: { name: "Corner Coffee", brandColor: "#1a7f5a" },
    });
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe("Payment poster - Corner Coffee");
    expect(pdf.getSubject()).toBe(`CPXTB payment ${payment.reference}`);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("draws a name in Turkish, Chinese or Arabic with the fonts that have its letters, the amount exact", async () => {
    serveFontFiles();
    for (const name of ["Çiğköfteci Şükrü", "东京拉面馆", "مقهى الياسمين"]) {
      const drawn = await drawnTexts(
        await createPosterPdf({ payment, merchant: { name, brandColor: null } }),
      );
      const texts = drawn.map((d) => d.text);
      expect(texts.join("")).toContain(name);
      expect(texts).toContain("1,234.500123 CPXTB");
      expect(texts).toContain("Scan to pay with CPXTB");
    }
  });

  it("speaks the merchant's language: Turkish, Chinese and Arabic too, the amount and link left to right", async () => {
    serveFontFiles();
    for (const [locale, amount] of [
      ["tr", "1.234,500123 CPXTB"],
      ["zh-CN", "1,234.500123 CPXTB"],
      ["ar", "1,234.500123 CPXTB"],
    ] as const) {
      await speak(locale);
      const bytes = await createPosterPdf({
        payment,
        merchant: { name: "Corner Coffee", brandColor: null },
        locale,
      });
      const texts = (await drawnTexts(bytes)).map((d) => d.text);
      // Every word of the message (an Arabic line's runs are drawn in visual order).
      for (const word of i18n._("merchant.poster.scanToPay").split(" "))
        expect(texts.join("")).toContain(word);
      expect(texts).toContain(amount);
      expect(texts).toContain(payment.paymentUrl);
      expect(texts.join("")).not.toContain("?");
      expect((await PDFDocument.load(bytes)).getTitle()).toBe(
        i18n._("merchant.poster.documentTitle", { merchant: "Corner Coffee" }),
      );
    }
  });

  it("does not fail on names the standard fonts cannot draw, or very long ones", async () => {
    serveFontFiles();
    const bytes = await createPosterPdf({
      payment: { ...payment, description: "Café ☕ 東京 ".repeat(20), amountUsd: null },
      merchant: { name: "Ramen 東京 🍜 — the best noodles in town, open all night long", brandColor: null },
    });
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
  });
});
