import { intlTag } from "@common/locale-format";
import { directionOf, type Locale } from "@common/locales";
import type { ReportSummary } from "@common/reports";
import { PDFDocument, type PDFPage, rgb } from "pdf-lib";
import { formatDateTime, formatTokenAmount, formatUsd } from "@/features/payments/format";
import { STATUS_LABEL_ID } from "@/features/payments/payment-status";
import { t } from "@/i18n/i18n";
import { embedPdfFonts, type PdfFonts } from "@/lib/pdf-fonts";
import {
  type Direction,
  drawPieces,
  type FontStack,
  isolateLtr,
  linePieces,
  widthOf,
  wrapText,
} from "@/lib/pdf-text";
import { foldQuietBuckets, formatDay, formatDaySpan } from "./range";

/**
 * The report as an A4 PDF, made in the browser: the same totals, chart and tables as the page, in the merchant's
 * language (the page's: its "reports" and "pay" catalogs are loaded and active). This module and pdf-lib load only
 * when the merchant asks for the PDF (a dynamic import); a Turkish, Chinese or Arabic report also fetches its fonts
 * then (`lib/pdf-fonts.ts`). An Arabic report is laid out right to left, as the receipt is: its words start on the
 * right and the number columns are mirrored; amounts, dates and the chart (time runs left to right, as on the page)
 * are left-to-right values. The CSV keeps its English column names (a data format); the PDF is for people.
 */
const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const GREY = rgb(0.32, 0.35, 0.42);
const BLACK = rgb(0, 0, 0);
const LINE = rgb(0.85, 0.87, 0.92);
const BAR = rgb(0.184, 0.357, 0.827);
/** Table text: its size and the distance between two lines of one cell. */
const CELL = 9.5;
const CELL_LEADING = 12;

/**
 * An ellipsis as three dots, as the standard fonts' reports always had; Intl's narrow and thin spaces (French digit
 * groups) as the no-break space every font of the PDFs has.
 */
function plain(text: string): string {
  return text.replace(/\u2026/g, "...").replace(/[\u202f\u2009]/g, "\u00a0");
}

/**
 * A table: a label column (wrapped within `label` points) and value columns whose ends are `columns` points from
 * the page's start edge (the left one, the right one in Arabic). A row with one cell spans the table (grey).
 */
type Table = { head: string[]; rows: string[][]; label: number; columns: number[] };

type Align = "start" | "end";

class Writer {
  page!: PDFPage;
  y = 0;
  readonly regular: FontStack;
  readonly bold: FontStack;
  readonly direction: Direction;
  private readonly rtl: boolean;
  constructor(
    private readonly pdf: PDFDocument,
    fonts: PdfFonts,
  ) {
    this.regular = fonts.regular;
    this.bold = fonts.bold;
    this.direction = fonts.direction;
    this.rtl = fonts.direction === "rtl";
    this.newPage();
  }
  newPage() {
    this.page = this.pdf.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }
  /** Room for `height` more points, or a new page (true when it started one). */
  need(height: number): boolean {
    if (this.y - height >= MARGIN) return false;
    this.newPage();
    return true;
  }
  /**
   * One line at `offset` points from the page's start edge (the left one; the right one in a right-to-left
   * report), its start or its end there. A value (an amount, a date) passes "ltr" and keeps its order.
   */
  line(
    text: string,
    offset: number,
    {
      size = 10,
      font = this.regular,
      color = BLACK,
      align = "start" as Align,
      direction = this.direction,
    } = {},
  ) {
    const pieces = linePieces(font, plain(text), size, direction);
    const width = widthOf(pieces);
    const x = this.rtl ? A4.width - offset : offset;
    const left = (align === "start") !== this.rtl ? x : x - width;
    drawPieces(this.page, pieces, left, this.y, size, color);
  }
  /** Words wrapped within `width` (their lines, not drawn). */
  wrap(text: string, size: number, width: number, font = this.regular): string[] {
    return wrapText(font, plain(text), size, width, this.direction);
  }
  /** A paragraph across the page, from `y` down. */
  paragraph(text: string, size: number, font = this.regular, color = GREY) {
    for (const part of this.wrap(text, size, A4.width - 2 * MARGIN, font)) {
      this.need(size * 1.35);
      this.line(part, MARGIN, { size, font, color });
      this.y -= size * 1.35;
    }
  }
  rule() {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y - 4 },
      end: { x: A4.width - MARGIN, y: this.y - 4 },
      thickness: 0.5,
      color: LINE,
    });
  }
  /** Its header is drawn again, "(continued)", at the top of every page the table continues on. */
  table({ head, rows, label, columns }: Table) {
    const spans = columns.map((end, i) => end - (i === 0 ? MARGIN + label : columns[i - 1]!) - 8);
    /** A row's cells as lines: the label and the header's words wrap in their column, values never do. */
    const layout = (cells: string[], font: FontStack, words: boolean): string[][] =>
      cells.length === 1
        ? [this.wrap(cells[0]!, CELL, A4.width - 2 * MARGIN, font)]
        : cells.map((cell, i) =>
            i === 0
              ? this.wrap(cell, CELL, label, font)
              : words
                ? this.wrap(cell, CELL, spans[i - 1]!, font)
                : [cell],
          );
    const heightOf = (lines: string[][]) => Math.max(1, ...lines.map((l) => l.length)) * CELL_LEADING;
    const draw = (lines: string[][], font: FontStack, words: boolean) => {
      const top = this.y;
      lines.forEach((cell, i) => {
        this.y = top;
        for (const part of cell) {
          if (lines.length === 1) this.line(part, MARGIN, { size: CELL, font, color: GREY });
          else if (i === 0) this.line(part, MARGIN, { size: CELL, font });
          else
            this.line(part, columns[i - 1]!, {
              size: CELL,
              font,
              align: "end",
              direction: words ? this.direction : "ltr",
            });
          this.y -= CELL_LEADING;
        }
      });
      this.y = top - heightOf(lines) + CELL_LEADING;
    };
    const header = (continued: boolean) => {
      const cells = continued ? [t("reports.pdf.continued", { heading: head[0]! }), ...head.slice(1)] : head;
      draw(layout(cells, this.bold, true), this.bold, true);
      this.rule();
      this.y -= 16;
    };
    this.need(40 + heightOf(layout(head, this.bold, true)));
    header(false);
    for (const cells of rows) {
      const lines = layout(cells, this.regular, false);
      if (this.need(heightOf(lines) + 2)) header(true);
      draw(lines, this.regular, false);
      this.y -= 14;
    }
    this.y -= 10;
  }
}

export async function createReportPdf(
  report: ReportSummary,
  businessName: string | null,
  locale: Locale = "en",
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(t("reports.pdf.documentTitle", { from: report.from, to: report.to }));
  pdf.setLanguage(locale);
  pdf.setCreator("CPXTB Pay");
  pdf.setProducer("CPXTB Pay");

  const tag = intlTag(locale);
  const day = (date: string) => formatDay(date, undefined, tag);
  const count = (n: number) => formatTokenAmount(String(n), locale);
  const amount = (value: string) => formatTokenAmount(value, locale);
  const usd = (value: string) => formatUsd(value, locale);
  const symbol = report.token.symbol;
  const week = report.bucket === "week";
  const r = report.revenue;

  // Every word first: the fonts are chosen for what the PDF draws (a name in any script).
  const title = businessName
    ? t("reports.pdf.titleBusiness", { business: businessName })
    : t("reports.pdf.title");
  const range = t("reports.pdf.range", { from: day(report.from), to: day(report.to), zone: report.tz });
  const made = t("reports.pdf.made", { date: formatDateTime(new Date().toISOString(), locale) });
  const totals: Table = {
    head: [t("reports.pdf.totals"), t("reports.pdf.payments"), symbol, "USD"],
    rows: [
      [t("reports.pdf.revenue"), count(r.count), amount(r.amountReceived), usd(r.usd)],
      [
        t("reports.pdf.average"),
        "",
        r.averageReceived ? amount(r.averageReceived) : "-",
        r.averageUsd ? usd(r.averageUsd) : "-",
      ],
      [
        t(STATUS_LABEL_ID.paid_late),
        count(report.paidLate.count),
        amount(report.paidLate.amountReceived),
        usd(report.paidLate.usd),
      ],
      [
        t("reports.pdf.refunded"),
        count(report.refunds.count),
        amount(report.refunds.amountRefunded),
        usd(report.refunds.usd),
      ],
      [t("reports.pdf.net"), "", amount(report.netRevenue.amount), usd(report.netRevenue.usd)],
      [
        t("reports.pdf.partialReceived"),
        count(report.partial.count),
        amount(report.partial.amountReceived),
        usd(report.partial.usd),
      ],
      [t("reports.pdf.created"), count(report.payments), "", ""],
    ],
    label: 330 - 70 - MARGIN,
    columns: [330, 440, A4.width - MARGIN],
  };
  const unvalued = r.unvalued > 0 ? t("reports.pdf.unvalued", { count: r.unvalued }) : "";
  const chartTitle = t(week ? "reports.pdf.chartWeeks" : "reports.pdf.chartDays");
  const values = report.buckets.map((b) => Number(b.usd));
  const max = Math.max(0, ...values) || 1;
  const chartFirst = day(report.buckets[0]?.start ?? report.from);
  const chartLast = day(report.buckets.at(-1)?.start ?? report.to);
  // A price inside a sentence keeps its order whatever the sentence's direction ("US$" after the digits in Arabic).
  const chartMax = t("reports.pdf.chartMax", { amount: isolateLtr(usd(max.toFixed(2))) });
  const byStatus: Table = {
    head: [
      t("reports.pdf.byStatus"),
      t("reports.pdf.payments"),
      t("reports.pdf.due", { symbol }),
      t("reports.pdf.received", { symbol }),
      t("reports.pdf.usdValue"),
    ],
    rows: report.byStatus.map((s) => [
      t(STATUS_LABEL_ID[s.status]),
      count(s.count),
      amount(s.amountDue),
      amount(s.amountReceived),
      usd(s.usd),
    ]),
    label: 250 - 70 - MARGIN,
    columns: [250, 350, 450, A4.width - MARGIN],
  };
  const byBucket: Table = {
    head: [t(week ? "reports.pdf.week" : "reports.pdf.day"), t("reports.pdf.paid"), symbol, "USD"],
    // Runs of days (weeks) without a paid payment are one line: "No payments 1-14 Nov".
    rows: foldQuietBuckets(report.buckets).map((row) => {
      if (row.kind === "quiet") {
        const span =
          directionOf(locale) === "rtl" && row.from !== row.to
            ? // Both days whole ("11 يناير – 12 يناير"): in a right-to-left line, "11–12" is one left-to-right run
              // for pdf-text.ts, which an Arabic reader, starting from the right, would read backwards.
              `${formatDaySpan(row.from, row.from, tag)} – ${formatDaySpan(row.to, row.to, tag)}`
            : formatDaySpan(row.from, row.to, tag);
        return [
          week
            ? t(row.from === row.to ? "reports.pdf.quietWeek" : "reports.pdf.quietWeeks", { span })
            : t("reports.pdf.quietDays", { span }),
        ];
      }
      const start = day(row.bucket.start);
      return [
        week ? t("reports.pdf.weekOf", { day: start }) : start,
        count(row.bucket.count),
        `${amount(row.bucket.amountReceived)} ${symbol}`,
        usd(row.bucket.usd),
      ];
    }),
    label: 300 - 60 - MARGIN,
    columns: [300, 440, A4.width - MARGIN],
  };
  const tables = [totals, byStatus, byBucket];
  const texts = [
    title,
    range,
    made,
    unvalued,
    chartTitle,
    chartFirst,
    chartLast,
    chartMax,
    t("reports.pdf.continued", { heading: byBucket.head[0]! }),
    ...tables.flatMap((table) => [...table.head, ...table.rows.flat()]),
  ];
  const fonts = await embedPdfFonts(pdf, locale, texts.map(plain));
  const w = new Writer(pdf, fonts);

  // The title: smaller for a long name, then wrapped.
  let size = 20;
  while (size > 14 && widthOf(linePieces(w.bold, plain(title), size, w.direction)) > A4.width - 2 * MARGIN)
    size -= 1;
  for (const part of w.wrap(title, size, A4.width - 2 * MARGIN, w.bold)) {
    w.line(part, MARGIN, { size, font: w.bold });
    w.y -= size * 1.2;
  }
  w.line(range, MARGIN, { size: 11, color: GREY });
  w.y -= 14;
  w.line(made, MARGIN, { size: 9, color: GREY });
  w.y -= 28;

  w.table(totals);
  if (unvalued) {
    w.paragraph(unvalued, 9);
    w.y -= 8;
  }

  // The chart: bars of USD revenue per bucket, time from left to right in every language (as on the page).
  const chartH = 150;
  w.need(chartH + 50);
  w.line(chartTitle, MARGIN, { size: 12, font: w.bold });
  w.y -= 12;
  const plotW = A4.width - 2 * MARGIN;
  const band = plotW / Math.max(1, values.length);
  const base = w.y - chartH;
  w.page.drawLine({
    start: { x: MARGIN, y: base },
    end: { x: MARGIN + plotW, y: base },
    thickness: 0.5,
    color: GREY,
  });
  values.forEach((v, i) => {
    if (v <= 0) return;
    const h = (v / max) * (chartH - 10);
    w.page.drawRectangle({
      x: MARGIN + i * band + band * 0.15,
      y: base,
      width: Math.max(0.5, band * 0.7),
      height: h,
      color: BAR,
    });
  });
  w.y = base - 14;
  // The dates under the chart's ends are values, left to right at the ends of its time axis.
  const axis = (text: string, x: number, end: boolean) => {
    const pieces = linePieces(w.regular, plain(text), 8, "ltr");
    drawPieces(w.page, pieces, end ? x - widthOf(pieces) : x, w.y, 8, GREY);
  };
  axis(chartFirst, MARGIN, false);
  axis(chartLast, MARGIN + plotW, true);
  // "max" is a word: its line in the report's direction, centred under the chart.
  const maxPieces = linePieces(w.regular, plain(chartMax), 8, w.direction);
  drawPieces(w.page, maxPieces, MARGIN + (plotW - widthOf(maxPieces)) / 2, w.y, 8, GREY);
  w.y -= 30;

  w.table(byStatus);
  w.table(byBucket);
  return pdf.save();
}

export async function downloadReportPdf(report: ReportSummary, businessName: string | null, locale: Locale) {
  const bytes = await createReportPdf(report, businessName, locale);
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `cpxtb-report-${report.from}-to-${report.to}.pdf`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
