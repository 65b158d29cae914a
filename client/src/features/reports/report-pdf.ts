import type { ReportSummary } from "@common/reports";
import { PAYMENT_STATUS_NAMES } from "@common/status-names";
import { PDFDocument, type PDFPage, rgb } from "pdf-lib";
import { formatTokenAmount, formatUsd } from "@/features/payments/format";
import { embedPdfFonts } from "@/lib/pdf-fonts";
import { drawPieces, type FontStack, linePieces, widthOf } from "@/lib/pdf-text";
import { foldQuietBuckets, formatDay, quietLabel } from "./range";

/**
 * The report as an A4 PDF, made in the browser: the same totals, chart and tables as the page. This module and
 * pdf-lib load only when the merchant asks for the PDF (a dynamic import).
 */
const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const GREY = rgb(0.32, 0.35, 0.42);
const LINE = rgb(0.85, 0.87, 0.92);
const BAR = rgb(0.184, 0.357, 0.827);

/** An ellipsis as three dots, as the standard fonts' reports always had. */
function plain(text: string): string {
  return text.replace(/\u2026/g, "...");
}

class Writer {
  page!: PDFPage;
  y = 0;
  constructor(
    private readonly pdf: PDFDocument,
    readonly regular: FontStack,
    readonly bold: FontStack,
  ) {
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
  text(text: string, x: number, size = 10, font = this.regular, color = rgb(0, 0, 0)) {
    drawPieces(this.page, linePieces(font, plain(text), size, "auto"), x, this.y, size, color);
  }
  right(text: string, xRight: number, size = 10, font = this.regular) {
    const pieces = linePieces(font, plain(text), size, "auto");
    drawPieces(this.page, pieces, xRight - widthOf(pieces), this.y, size, rgb(0, 0, 0));
  }
  rule() {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y - 4 },
      end: { x: A4.width - MARGIN, y: this.y - 4 },
      thickness: 0.5,
      color: LINE,
    });
  }
  /**
   * A table: the first column left-aligned, the others right-aligned at `columns` x positions. Its header is
   * drawn again at the top of every page the table continues on. A row with one cell spans the table (grey).
   */
  table(head: string[], rows: string[][], columns: number[]) {
    const row = (cells: string[], font: FontStack) => {
      if (cells.length === 1) {
        this.text(cells[0]!, MARGIN, 9.5, font, GREY);
        return;
      }
      this.text(cells[0]!, MARGIN, 9.5, font);
      cells.slice(1).forEach((c, i) => {
        this.right(c, columns[i]!, 9.5, font);
      });
    };
    const header = (continued: boolean) => {
      row(continued ? [`${head[0]} (continued)`, ...head.slice(1)] : head, this.bold);
      this.rule();
      this.y -= 16;
    };
    this.need(40);
    header(false);
    for (const cells of rows) {
      if (this.need(16)) header(true);
      row(cells, this.regular);
      this.y -= 14;
    }
    this.y -= 10;
  }
}

/** "Week of 2 Nov 2026" or "2 Nov 2026": the PDF's words are English (decision 038). */
function bucketLabel(start: string, bucket: ReportSummary["bucket"]): string {
  return bucket === "week" ? `Week of ${formatDay(start)}` : formatDay(start);
}

function usd(value: string) {
  return formatUsd(value);
}

export async function createReportPdf(
  report: ReportSummary,
  businessName: string | null,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const range = `${formatDay(report.from)} - ${formatDay(report.to)}`;
  pdf.setTitle(`Payments report ${report.from} to ${report.to}`);
  pdf.setCreator("CPXTB Pay");
  pdf.setProducer("CPXTB Pay");
  // The report's words are English; the business's name may be in any script.
  const fonts = await embedPdfFonts(pdf, "en", [plain(businessName ?? "")]);
  const w = new Writer(pdf, fonts.regular, fonts.bold);
  const symbol = report.token.symbol;
  const tokens = (v: string) => `${formatTokenAmount(v)} ${symbol}`;

  w.text(businessName ? `${businessName} - Payments report` : "Payments report", MARGIN, 20, w.bold);
  w.y -= 20;
  w.text(`${range} (${report.tz})`, MARGIN, 11, w.regular, GREY);
  w.y -= 14;
  w.text(
    `Made ${new Date().toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}`,
    MARGIN,
    9,
    w.regular,
    GREY,
  );
  w.y -= 28;

  const r = report.revenue;
  w.table(
    ["Totals", "Payments", symbol, "USD"],
    [
      ["Revenue (paid and paid late)", String(r.count), formatTokenAmount(r.amountReceived), usd(r.usd)],
      [
        "Average paid payment",
        "",
        r.averageReceived ? formatTokenAmount(r.averageReceived) : "-",
        r.averageUsd ? usd(r.averageUsd) : "-",
      ],
      [
        PAYMENT_STATUS_NAMES.paid_late,
        String(report.paidLate.count),
        formatTokenAmount(report.paidLate.amountReceived),
        usd(report.paidLate.usd),
      ],
      [
        "Refunded",
        String(report.refunds.count),
        formatTokenAmount(report.refunds.amountRefunded),
        usd(report.refunds.usd),
      ],
      [
        "Net revenue (revenue minus its refunds)",
        "",
        formatTokenAmount(report.netRevenue.amount),
        usd(report.netRevenue.usd),
      ],
      [
        `${PAYMENT_STATUS_NAMES.partial} (received)`,
        String(report.partial.count),
        formatTokenAmount(report.partial.amountReceived),
        usd(report.partial.usd),
      ],
      ["All payments created", String(report.payments), "", ""],
    ],
    [330, 440, A4.width - MARGIN],
  );
  if (r.unvalued > 0) {
    w.text(
      `${r.unvalued} paid payment(s) have no USD rate and are left out of the USD totals.`,
      MARGIN,
      9,
      w.regular,
      GREY,
    );
    w.y -= 20;
  }

  // The chart: bars of USD revenue per bucket.
  const chartH = 150;
  w.need(chartH + 50);
  w.text(`Revenue per ${report.bucket} (USD)`, MARGIN, 12, w.bold);
  w.y -= 12;
  const values = report.buckets.map((b) => Number(b.usd));
  const max = Math.max(0, ...values) || 1;
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
  w.text(formatDay(report.buckets[0]?.start ?? report.from), MARGIN, 8, w.regular, GREY);
  w.right(formatDay(report.buckets.at(-1)?.start ?? report.to), MARGIN + plotW, 8);
  w.text(`max ${usd(String(max.toFixed(2)))}`, MARGIN + plotW / 2 - 20, 8, w.regular, GREY);
  w.y -= 30;

  w.table(
    ["By status", "Payments", `Due (${symbol})`, `Received (${symbol})`, "USD value"],
    report.byStatus.map((s) => [
      PAYMENT_STATUS_NAMES[s.status],
      String(s.count),
      formatTokenAmount(s.amountDue),
      formatTokenAmount(s.amountReceived),
      usd(s.usd),
    ]),
    [250, 350, 450, A4.width - MARGIN],
  );

  w.table(
    [report.bucket === "week" ? "Week" : "Day", "Paid", symbol, "USD"],
    // Runs of days (weeks) without a paid payment are one line: "No payments 1-14 Nov".
    foldQuietBuckets(report.buckets).map((row) =>
      row.kind === "quiet"
        ? [quietLabel(row, report.bucket)]
        : [
            bucketLabel(row.bucket.start, report.bucket),
            String(row.bucket.count),
            tokens(row.bucket.amountReceived),
            usd(row.bucket.usd),
          ],
    ),
    [300, 440, A4.width - MARGIN],
  );
  return pdf.save();
}

export async function downloadReportPdf(report: ReportSummary, businessName: string | null) {
  const bytes = await createReportPdf(report, businessName);
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `cpxtb-report-${report.from}-to-${report.to}.pdf`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
