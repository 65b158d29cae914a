import { LOCALES, type Locale } from "@common/locales";
import type { ReportSummary } from "@common/reports";
import { i18n } from "@lingui/core";
import { PDFDocument } from "pdf-lib";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadMessages } from "@/i18n/i18n";
import en from "@/locales/en/reports.json";
import { drawnPages, drawnTexts, embeddedFonts, serveFontFiles } from "@/test/pdf-text";
import { addDays } from "./range";
import { createReportPdf } from "./report-pdf";

/** The report's words in `locale` (the page loads these two areas: its own and the checkout's status names). */
async function speak(locale: Locale) {
  await loadMessages(locale, ["reports", "pay"]);
  i18n.activate(locale);
}

function report(days: number, paidEvery: number, bucket: "day" | "week" = "day"): ReportSummary {
  const from = "2026-01-01";
  const money = { count: 0, amountReceived: "0", usd: "0.00", unvalued: 0 };
  return {
    from,
    to: addDays(from, days - 1),
    tz: "UTC",
    bucket,
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
      start: bucket === "week" ? addDays(from, 7 * i) : addDays(from, i),
      ...(i % paidEvery === 0 && i > 20
        ? { count: 1, amountReceived: "4", usd: "1.00", unvalued: 0 }
        : money),
    })),
    refunds: { count: 0, amountRefunded: "0", usd: "0.00" },
    netRevenue: { amount: "0", usd: "0.00" },
  };
}

/** A month with every row of the report in use: each status, a refund, a payment without a USD rate. */
function busyReport(bucket: "day" | "week" = "day"): ReportSummary {
  const base = report(bucket === "week" ? 5 : 31, 2, bucket);
  const paid = { count: 3, amountReceived: "1234.000821", usd: "308.50", unvalued: 1 };
  return {
    ...base,
    payments: 9,
    revenue: { ...paid, averageReceived: "411.333607", averageUsd: "102.83" },
    paidLate: { count: 1, amountReceived: "200.5", usd: "50.12", unvalued: 0 },
    refunds: { count: 1, amountRefunded: "12.25", usd: "3.06" },
    netRevenue: { amount: "1221.750821", usd: "305.44" },
    byStatus: [
      {
        status: "completed",
        count: 2,
        amountReceived: "1033.500821",
        usd: "258.38",
        unvalued: 1,
        amountDue: "1033.500821",
      },
      {
        status: "paid_late",
        count: 1,
        amountReceived: "200.5",
        usd: "50.12",
        unvalued: 0,
        amountDue: "200.5",
      },
      { status: "partial", count: 1, amountReceived: "10", usd: "2.50", unvalued: 0, amountDue: "40" },
      { status: "pending", count: 2, amountReceived: "0", usd: "0.00", unvalued: 0, amountDue: "80" },
      { status: "expired", count: 3, amountReceived: "0", usd: "0.00", unvalued: 0, amountDue: "99" },
    ],
    buckets: base.buckets.map((b, i) =>
      i === 0 ? { ...b, count: 3, amountReceived: "1234.000821", usd: "308.50", unvalued: 1 } : b,
    ),
  };
}

/** The ids of the words a report PDF draws: its own, and the status names it shares with the page. */
const PDF_IDS = [
  ...Object.keys(en).filter((id) => id.startsWith("reports.pdf.")),
  ...[
    "pay.status.completed",
    "pay.status.paid_late",
    "pay.status.partial",
    "pay.status.pending",
    "pay.status.expired",
  ],
];
const SAMPLE = {
  business: "",
  from: "",
  to: "",
  zone: "",
  date: "",
  day: "",
  span: "",
  heading: "",
  amount: "",
  symbol: "",
  count: 2,
};
/** The letters-only words of the PDF's messages in the active language. */
function catalogWords(): Set<string> {
  return new Set(PDF_IDS.flatMap((id) => i18n._(id, SAMPLE).match(/\p{L}+/gu) ?? []));
}

describe("report PDF", () => {
  beforeEach(() => speak("en"));
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("repeats the table's header on every page and folds the days without payments", async () => {
    const pages = (await drawnPages(await createReportPdf(report(366, 2), "Corner Coffee"))).map((page) =>
      page.map((d) => d.text),
    );
    expect(pages.length).toBeGreaterThan(2);
    expect(pages[0]).toContain("Corner Coffee - Payments report");
    // The 22 quiet days at the start (1-22 January) are one line.
    const first = pages.flat().find((t) => t.startsWith("No payments"));
    expect(first).toMatch(/^No payments .*\b1\b.*\b22\b/);
    // Every page after the first one that the day table continues on starts with its header.
    for (const texts of pages.slice(2)) {
      expect(texts.slice(0, 4)).toEqual(["Day (continued)", "Paid", "CPXTB", "USD"]);
    }
    // The status table uses the catalog's names.
    expect(pages.flat()).toContain("Partly paid");
    expect(pages.flat()).toContain("Partly paid (received)");
    const pdf = await PDFDocument.load(await createReportPdf(report(31, 2), null));
    expect(pdf.getTitle()).toBe("Payments report 2026-01-01 to 2026-01-31");
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

  it("speaks German: the catalog's words, dates and amounts the German way, no English word left", async () => {
    const englishWords = catalogWords();
    await speak("de");
    const germanWords = catalogWords();
    for (const bucket of ["day", "week"] as const) {
      const bytes = await createReportPdf(busyReport(bucket), "Corner Coffee", "de");
      expect(await embeddedFonts(bytes), "German needs the standard fonts only").toEqual([]);
      const texts = (await drawnPages(bytes)).flat().map((d) => d.text.replace(/\u00a0/g, " "));
      expect(texts).toContain("Corner Coffee – Zahlungsbericht");
      expect(texts).toContain("Summen");
      expect(texts).toContain("Umsatz (bezahlt, auch nach Ablauf)");
      expect(texts).toContain("Nach Ablauf bezahlt");
      expect(texts).toContain("Teilweise bezahlt (erhalten)");
      // Amounts with German separators, the unique last digits kept; USD the locale's way.
      expect(texts).toContain("1.234,000821");
      expect(texts).toContain("308,50 $");
      expect(texts.some((t) => t.startsWith("01.01.2026 – "))).toBe(true);
      expect(texts.some((t) => /^Erstellt am \d\d\.\d\d\.\d{4}, \d\d:\d\d$/.test(t))).toBe(true);
      if (bucket === "week") expect(texts).toContain("Woche vom 01.01.2026");
      const left = [...englishWords].filter(
        (word) =>
          !germanWords.has(word) && texts.some((t) => new RegExp(`(^|\\P{L})${word}(\\P{L}|$)`, "u").test(t)),
      );
      expect(left, "English words in the German PDF").toEqual([]);
      expect(texts.join(" ")).not.toMatch(/reports\.pdf|pay\.status|\?/);
      expect((await PDFDocument.load(bytes)).getTitle()).toBe(
        `Zahlungsbericht 2026-01-01 bis ${busyReport(bucket).to}`,
      );
    }
  });

  it("speaks Arabic, right to left: Arabic words, amounts and dates left to right, no English word left", async () => {
    serveFontFiles();
    const englishWords = catalogWords();
    await speak("ar");
    const arabicWords = catalogWords();
    const bytes = await createReportPdf(busyReport(), "Corner Coffee", "ar");
    // Its words in Noto Sans Arabic, and the Latin Noto beside it (fetched once per page: maybe before this test).
    expect((await embeddedFonts(bytes)).map((name) => name.replace(/^\w+\+|-\d+$/g, "")).sort()).toEqual([
      "NotoSans-Bold",
      "NotoSans-Regular",
      "NotoSansArabic-Bold",
      "NotoSansArabic-Regular",
    ]);
    const texts = (await drawnPages(bytes)).flat().map((d) => d.text);
    expect(texts).toContain("تقرير الدفعات");
    expect(texts).toContain("Corner Coffee");
    expect(texts).toContain("الإجماليات");
    expect(texts).toContain("مدفوعة بعد انتهاء المهلة");
    // Amounts in latin digits, as the chain writes them; dates in latin digits.
    expect(texts).toContain("1,234.000821");
    expect(texts.join(" ")).toMatch(/308\.50\s?US\$/);
    expect(texts.join(" ")).not.toMatch(/[\u0660-\u0669]/);
    const left = [...englishWords].filter(
      (word) =>
        !arabicWords.has(word) && texts.some((t) => new RegExp(`(^|\\P{L})${word}(\\P{L}|$)`, "u").test(t)),
    );
    expect(left, "English words in the Arabic PDF").toEqual([]);
    expect(
      [...arabicWords].filter((word) => /^[A-Za-z]+$/.test(word)),
      "Latin words of the Arabic PDF",
    ).toEqual(["USD"]);
    expect(texts.join(" ")).not.toMatch(/reports\.pdf|pay\.status|\?/);
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getTitle()).toBe("تقرير الدفعات من 2026-01-01 إلى 2026-01-31");
  });

  it("is made in each of the nine languages with every character drawn and no id left", async () => {
    serveFontFiles();
    for (const locale of LOCALES) {
      await speak(locale);
      const bytes = await createReportPdf(busyReport("week"), "Corner Coffee", locale);
      const texts = (await drawnPages(bytes)).flat().map((d) => d.text);
      expect(texts.join(" "), locale).not.toMatch(/reports\.pdf|pay\.status|\?|\uFFFD/);
      expect(texts.join(" "), locale).toContain(i18n._("reports.pdf.totals"));
      expect((await PDFDocument.load(bytes)).getTitle()).toBe(
        i18n._("reports.pdf.documentTitle", { from: "2026-01-01", to: "2026-01-05" }),
      );
    }
  });

  it("draws Chinese from the words' font: the common hanzi are not needed for the report's own words", async () => {
    serveFontFiles();
    await speak("zh-CN");
    const bytes = await createReportPdf(busyReport("week"), "Corner Coffee", "zh-CN");
    const texts = (await drawnPages(bytes)).flat().map((d) => d.text);
    // One font draws the title's Latin name and its hanzi: one run.
    expect(texts).toContain("Corner Coffee - 付款报表");
    expect(texts).toContain("汇总");
    expect(texts.some((t) => t.includes("年") && t.includes("月"))).toBe(true);
    // The words' font in two weights; the common hanzi (a second regular font of the same name) are not embedded.
    expect((await embeddedFonts(bytes)).map((name) => name.replace(/-\d+$/, "")).sort()).toEqual([
      "NotoSansCJKsc-Bold",
      "NotoSansCJKsc-Regular",
    ]);
  });
});
