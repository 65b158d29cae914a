import type { Locale } from "@common/locales";
import type { PublicPayment } from "@common/payments";
import { PDFDocument, type PDFPage, rgb } from "pdf-lib";
import { t } from "@/i18n/i18n";
import { embedPdfFonts } from "@/lib/pdf-fonts";
import { type Direction, drawPieces, type FontStack, linePieces, widthOf, wrapText } from "@/lib/pdf-text";
import { saveFile } from "./components/qr-code";
import { formatTokenAmount, formatUsdAmount } from "./format";

/**
 * The payer's receipt of a paid payment as an A4 PDF, made in the browser from the public view, in the payer's
 * language. This module and pdf-lib load only when the payer asks for the receipt (a dynamic import of this file);
 * a Turkish, Chinese or Arabic receipt also fetches its fonts then (`lib/pdf-fonts.ts`). An Arabic receipt is laid
 * out right to left; amounts, addresses, hashes and the reference stay left to right, as the chain writes them.
 */
export type ReceiptInput = {
  payment: PublicPayment;
  /** The network by name ("Base", "Local development chain"). */
  network: string;
  /** The page that shows this receipt online: <origin>/payment/<reference>. */
  receiptUrl: string;
  /** The payer's language (the active one, whose catalog is loaded): the receipt's words are in it. */
  locale?: Locale;
};

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const WIDTH = A4.width - 2 * MARGIN;
const GREY = rgb(0.32, 0.35, 0.42);

/** Intl's narrow and thin spaces (French digit groups) are not in WinAnsi, a no-break space is; straight quotes. */
function plain(text: string): string {
  return text
    .replace(/[\u202f\u2009]/g, "\u00a0")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"');
}

/**
 * A transaction hash (0x + 64 hex digits) is wider than its column: printed as two lines of eight groups of four
 * digits, the way long numbers are read aloud and compared, instead of cut wherever the column ends (which left
 * one or two letters on a line of their own).
 */
export function groupedHash(hash: string): string {
  const digits = hash.replace(/^0x/i, "");
  const groups = digits.match(/.{1,4}/g) ?? [];
  const half = Math.ceil(groups.length / 2);
  return `0x${groups.slice(0, half).join(" ")}\n${groups.slice(half).join(" ")}`;
}

function utc(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

type Style = "regular" | "bold" | "mono";
/** A row of the receipt: its label, its value, the value's style, and whether the value is a left-to-right one. */
type Row = { label: string; value: string; style: Style; ltr?: boolean };

export async function createReceiptPdf({
  payment,
  network,
  receiptUrl,
  locale = "en",
}: ReceiptInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(t("pay.pdf.documentTitle", { merchant: payment.merchant.name }));
  pdf.setSubject(t("pay.pdf.documentSubject", { reference: payment.reference }));
  pdf.setLanguage(locale);
  pdf.setCreator("CPXTB Pay");
  pdf.setProducer("CPXTB Pay");
  const page: PDFPage = pdf.addPage([A4.width, A4.height]);
  const tokens = (amount: string) => `${formatTokenAmount(amount, locale)} ${payment.token.symbol}`;

  const row = (label: string, value: string, style: Style = "regular", ltr = false): Row => ({
    label: plain(label),
    value: plain(value),
    style,
    ltr,
  });
  const rows: Row[] = [
    row(t("pay.pdf.amountDue"), tokens(payment.amountDue), "regular", true),
    ...(payment.amountUsd
      ? [row(t("pay.pdf.price"), formatUsdAmount(payment.amountUsd, locale), "regular", true)]
      : []),
    row(t("pay.pdf.amountPaid"), tokens(payment.amountReceived), "regular", true),
    ...(payment.amountReceivedUsd
      ? [row(t("pay.pdf.value"), formatUsdAmount(payment.amountReceivedUsd, locale), "regular", true)]
      : []),
    ...(payment.description ? [row(t("pay.pdf.for"), payment.description)] : []),
    ...(payment.orderId ? [row(t("pay.pdf.order"), payment.orderId)] : []),
    ...(payment.completedAt ? [row(t("pay.pdf.paidOn"), utc(payment.completedAt), "regular", true)] : []),
    row(t("pay.pdf.network"), network),
    row(t("pay.pdf.token"), `${payment.token.symbol} ${payment.token.address}`, "mono", true),
    row(t("pay.pdf.paidTo"), payment.receivingAddress, "mono", true),
    ...payment.txHashes.map((hash) => row(t("pay.pdf.transaction"), groupedHash(hash), "mono", true)),
    row(t("pay.pdf.reference"), payment.reference, "mono", true),
  ];
  const words = {
    merchant: plain(payment.merchant.name),
    heading: plain(t("pay.pdf.heading")),
    amount: plain(tokens(payment.amountReceived)),
    status: plain(payment.status === "paid_late" ? t("pay.pdf.paidLate") : t("pay.pdf.paid")),
    verified: plain(t("pay.pdf.verified")),
    checkOnline: plain(t("pay.pdf.checkOnline", { url: receiptUrl })),
    madeBy: plain(t("pay.pdf.madeBy", { date: utc(new Date().toISOString()) })),
  };
  const fonts = await embedPdfFonts(pdf, locale, [
    ...Object.values(words),
    ...rows.flatMap((row) => [row.label, row.value]),
  ]);
  const stacks: Record<Style, FontStack> = { regular: fonts.regular, bold: fonts.bold, mono: fonts.mono };
  const rtl = fonts.direction === "rtl";

  let y = A4.height - MARGIN - 10;
  /** One line in the column [x, x + width]: at its start (its right end in a right-to-left receipt). */
  const line = (
    value: string,
    stack: FontStack,
    size: number,
    color: ReturnType<typeof rgb>,
    x: number,
    width: number,
    at: number,
    direction: Direction,
  ) => {
    const pieces = linePieces(stack, value, size, direction);
    drawPieces(page, pieces, rtl ? x + width - widthOf(pieces) : x, at, size, color);
  };
  /** `value` wrapped in the column, from `y` down. A left-to-right value keeps its order in an Arabic receipt. */
  const text = (
    value: string,
    style: Style,
    size: number,
    color = rgb(0, 0, 0),
    x = MARGIN,
    width = WIDTH,
    ltr = false,
  ) => {
    const stack = stacks[style];
    const direction = ltr ? "ltr" : fonts.direction;
    for (const part of value.split("\n").flatMap((p) => wrapText(stack, p, size, width, direction))) {
      line(part, stack, size, color, x, width, y, direction);
      y -= size * 1.35;
    }
  };

  text(words.merchant, "bold", 24);
  y -= 4;
  text(words.heading, "regular", 14, GREY);
  y -= 14;
  page.drawLine({
    start: { x: MARGIN, y },
    end: { x: A4.width - MARGIN, y },
    thickness: 1,
    color: rgb(0.85, 0.87, 0.92),
  });
  y -= 28;
  text(words.amount, "bold", 26, rgb(0, 0, 0), MARGIN, WIDTH, true);
  text(words.status, "regular", 13, GREY);
  y -= 18;

  const labelWidth = 110;
  // In a right-to-left receipt the labels are the right column and the values the left one.
  const labelX = rtl ? A4.width - MARGIN - labelWidth + 8 : MARGIN;
  const valueX = rtl ? MARGIN : MARGIN + labelWidth;
  for (const { label, value, style, ltr } of rows) {
    const top = y;
    // A label longer than its column ("Montant à payer") wraps within it, and the row grows to hold it.
    let labelY = y;
    for (const part of wrapText(fonts.regular, label, 10.5, labelWidth - 8, fonts.direction)) {
      line(part, fonts.regular, 10.5, GREY, labelX, labelWidth - 8, labelY, fonts.direction);
      labelY -= 10.5 * 1.35;
    }
    text(value, style, style === "mono" ? 9.5 : 10.5, rgb(0, 0, 0), valueX, WIDTH - labelWidth, ltr);
    y = Math.min(y, labelY + 10.5 * 1.35 - 14, top - 14) - 6;
  }
  y -= 16;
  text(words.verified, "regular", 10, GREY);
  text(words.checkOnline, "regular", 10, GREY);
  line(words.madeBy, fonts.regular, 8.5, GREY, MARGIN, WIDTH, MARGIN - 20, fonts.direction);
  return pdf.save();
}

export async function downloadReceipt(input: ReceiptInput) {
  const bytes = await createReceiptPdf(input);
  saveFile(
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }),
    `receipt-${input.payment.reference.slice(0, 8)}.pdf`,
  );
}
