import type { ReportSummary } from "@common/reports";
import { decodePDFRawStream, PDFDocument, PDFRawStream } from "pdf-lib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { drawnTexts, serveFontFiles } from "@/test/pdf-text";
import { addDays } from "./range";
import { createReportPdf } from "./report-pdf";

/** The text each page draws (pdf-lib writes it as hex strings in the content stream). */
async function pageTexts(bytes: Uint8Array): Promise<string[][]> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents && "asArray" in contents ? contents.asArray() : [contents];
    let source = "";
    for (const ref of streams) {
      const stream = pdf.context.lookup(ref as never);
      if (stream instanceof PDFRawStream)
        source += new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode());
    }
    return [...source.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)].map((m) =>
      String.fromCharCode(...(m[1]!.match(/../g) ?? []).map((h) => Number.parseInt(h, 16))),
    );
  });
}

function report(days: number, paidEvery: number): ReportSummary {
  const from = "2026-01-01";
  const money = { count: 0, amountReceived: "0", usd: "0.00", unvalued: 0 };
  return {
    from,
    to: addDays(from, days - 1),
    tz: "UTC",
    bucket: "day",
    startsAt: `${from}T00:00:00.000Z`,
    endsAt: `${addDays(from, days)}T00:00:00.000Z`,
    token: { symbol: "CPXTB" },
    payments: 1,
    byStatus: [
      { status: "partial", count: 1, amountReceived: "10", usd: "2.50", unvalued: 0, amountDue: "40" },
    ],
    revenue: { ...money, averageReceived: null, averageUsd: null },
    paidLate: money,
    partial: { ...money, count: 1, amountReceived: "10", usd: "2.50" },
    buckets: Array.from({ length: days }, (_, i) => ({
      start: addDays(from, i),
      ...(i % paidEvery === 0 && i > 20
        ? { count: 1, amountReceived: "4", usd: "1.00", unvalued: 0 }
        : money),
    })),
    refunds: { count: 0, amountRefunded: "0", usd: "0.00" },
    netRevenue: { amount: "0", usd: "0.00" },
  };
}

describe("report PDF", () => {
  it("repeats the table's header on every page and folds the days without payments", async () => {
    const pages = await pageTexts(await createReportPdf(report(366, 2), "Corner Coffee"));
    expect(pages.length).toBeGreaterThan(2);
    expect(pages[0]).toContain("Corner Coffee - Payments report");
    // The 22 quiet days at the start (1-22 January) are one line.
    const first = pages.flat().find((t) => t.startsWith("No payments"));
    expect(first).toMatch(/^No payments .*\b1\b.*\b22\b/);
    // Every page after the first one that the day table continues on starts with its header.
    for (const texts of pages.slice(2)) {
      expect(texts[0]).toBe("Day (continued)");
      expect(texts.slice(0, 4)).toEqual(["Day (continued)", "Paid", "CPXTB", "USD"]);
    }
    // The status table uses the catalogue's names.
    expect(pages.flat()).toContain("Partly paid");
    expect(pages.flat()).toContain("Partly paid (received)");
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("writes a business's name in Turkish, Chinese or Arabic with the fonts that have its letters", async () => {
    const asked = serveFontFiles();
    await createReportPdf(report(31, 2), "Corner Coffee");
    expect(asked, "a Latin-1 name needs no font fetched").toEqual([]);
    for (const name of ["Çiğköfteci Şükrü", "东京拉面馆", "مقهى الياسمين"]) {
      const texts = (await drawnTexts(await createReportPdf(report(31, 2), name))).map((d) => d.text);
      expect(texts.join("")).toContain(name);
      expect(texts.join("")).toContain("Payments report");
      expect(texts.join("")).not.toContain("?");
    }
  });
});
