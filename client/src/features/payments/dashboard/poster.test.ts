import { PDFDocument } from "pdf-lib";
import { afterEach, describe, expect, it, vi } from "vitest";
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

describe("payment poster", () => {
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

  it("does not fail on names the standard fonts cannot draw, or very long ones", async () => {
    serveFontFiles();
    const bytes = await createPosterPdf({
      payment: { ...payment, description: "Café ☕ 東京 ".repeat(20), amountUsd: null },
      merchant: { name: "Ramen 東京 🍜 — the best noodles in town, open all night long", brandColor: null },
    });
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
  });
});
