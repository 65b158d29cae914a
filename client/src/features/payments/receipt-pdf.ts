import type { Locale } from "@common/locales";
import type { PublicPayment } from "@common/payments";
import { type Messages, setupI18n } from "@lingui/core";
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import { t as activeT, type Values } from "@/i18n/i18n";
import { saveFile } from "./components/qr-code";
import { formatTokenAmount, formatUsdAmount } from "./format";

/**
 * The payer's receipt of a paid payment as an A4 PDF, made in the browser from the public view. This module and
 * pdf-lib load only when the payer asks for the receipt (a dynamic import of this file).
 */
export type ReceiptInput = {
  payment: PublicPayment;
  /** The network by name ("Base", "Local development chain"). */
  network: string;
  /** The page that shows this receipt online: <origin>/payment/<reference>. */
  receiptUrl: string;
  /** The payer's language (the active one): the receipt's words are in it when the PDF's fonts can draw them. */
  locale?: Locale;
};

/**
 * The languages the standard PDF fonts (WinAnsi, about Latin-1) can write. Turkish (ğ ş ı İ), Simplified Chinese
 * and Arabic cannot be drawn without embedding a font, and @pdf-lib/fontkit (needed to embed one) is not a
 * dependency: their payers get the receipt in English, which every character of it can be drawn in, rather than a
 * page of "?". Adding fontkit and a Noto font subset per script would lift this (issue 37).
 */
const PDF_LOCALES: ReadonlySet<Locale> = new Set(["en", "es", "pt-BR", "fr", "de", "id"]);

const englishCatalog = import.meta.glob<{ messages: Messages }>("../../locales/en/pay.json", {
  query: "?lingui",
});

/** The words of the receipt: the active language's, or English for a language the fonts cannot draw. */
async function receiptTranslator(locale: Locale): Promise<(id: string, values?: Values) => string> {
  if (PDF_LOCALES.has(locale)) return activeT;
  const load = Object.values(englishCatalog)[0];
  if (!load) return activeT;
  const english = setupI18n({ locale: "en", messages: { en: (await load()).messages } });
  return (id, values) => english._(id, values as Record<string, unknown> | undefined);
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const WIDTH = A4.width - 2 * MARGIN;
const GREY = rgb(0.32, 0.35, 0.42);

/** The standard PDF fonts know Latin-1 only: anything else is shown as "?" rather than failing. */
function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  // Intl's narrow and thin spaces (French digit groups) are not in WinAnsi; a no-break space is.
  return Array.from(
    text
      .replace(/[\u202f\u2009]/g, "\u00a0")
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/[\u201c\u201d]/g, '"'),
  )
    .map((c) => (known.has(c.codePointAt(0)!) ? c : "?"))
    .join("");
}

/** Splits `text` into lines no wider than `width` (long words, such as hashes, are cut). */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of printable(font, text).split(/\s+/)) {
    let next = line ? `${line} ${word}` : word;
    while (font.widthOfTextAtSize(next, size) > width && next.length > 1) {
      if (line) {
        lines.push(line);
        line = "";
        next = word;
        continue;
      }
      let cut = next.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(next.slice(0, cut), size) > width) cut--;
      lines.push(next.slice(0, cut));
      next = next.slice(cut);
    }
    line = next;
  }
  if (line) lines.push(line);
  return lines;
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

export async function createReceiptPdf({
  payment,
  network,
  receiptUrl,
  locale = "en",
}: ReceiptInput): Promise<Uint8Array> {
  const t = await receiptTranslator(locale);
  // An English receipt (a language the fonts cannot draw) writes its amounts the English way too.
  const numbers = PDF_LOCALES.has(locale) ? locale : "en";
  const pdf = await PDFDocument.create();
  pdf.setTitle(t("pay.pdf.documentTitle", { merchant: payment.merchant.name }));
  pdf.setSubject(t("pay.pdf.documentSubject", { reference: payment.reference }));
  if (PDF_LOCALES.has(locale)) pdf.setLanguage(locale);
  pdf.setCreator("CPXTB Pay");
  pdf.setProducer("CPXTB Pay");
  const page: PDFPage = pdf.addPage([A4.width, A4.height]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.Courier);

  let y = A4.height - MARGIN - 10;
  const text = (
    value: string,
    font: PDFFont,
    size: number,
    color = rgb(0, 0, 0),
    x = MARGIN,
    width = WIDTH,
  ) => {
    for (const line of value.split("\n").flatMap((part) => wrap(font, part, size, width))) {
      page.drawText(line, { x, y, size, font, color });
      y -= size * 1.35;
    }
  };

  text(payment.merchant.name, bold, 24);
  y -= 4;
  text(t("pay.pdf.heading"), regular, 14, GREY);
  y -= 14;
  page.drawLine({
    start: { x: MARGIN, y },
    end: { x: A4.width - MARGIN, y },
    thickness: 1,
    color: rgb(0.85, 0.87, 0.92),
  });
  y -= 28;
  text(`${formatTokenAmount(payment.amountReceived, numbers)} ${payment.token.symbol}`, bold, 26);
  text(payment.status === "paid_late" ? t("pay.pdf.paidLate") : t("pay.pdf.paid"), regular, 13, GREY);
  y -= 18;

  const rows: [string, string, PDFFont][] = [
    [
      t("pay.pdf.amountDue"),
      `${formatTokenAmount(payment.amountDue, numbers)} ${payment.token.symbol}`,
      regular,
    ],
    ...(payment.amountUsd
      ? [
          [t("pay.pdf.price"), formatUsdAmount(payment.amountUsd, numbers), regular] as [
            string,
            string,
            PDFFont,
          ],
        ]
      : []),
    [
      t("pay.pdf.amountPaid"),
      `${formatTokenAmount(payment.amountReceived, numbers)} ${payment.token.symbol}`,
      regular,
    ],
    ...(payment.amountReceivedUsd
      ? [
          [t("pay.pdf.value"), formatUsdAmount(payment.amountReceivedUsd, numbers), regular] as [
            string,
            string,
            PDFFont,
          ],
        ]
      : []),
    ...(payment.description
      ? [[t("pay.pdf.for"), payment.description, regular] as [string, string, PDFFont]]
      : []),
    ...(payment.orderId ? [[t("pay.pdf.order"), payment.orderId, regular] as [string, string, PDFFont]] : []),
    ...(payment.completedAt
      ? [[t("pay.pdf.paidOn"), utc(payment.completedAt), regular] as [string, string, PDFFont]]
      : []),
    [t("pay.pdf.network"), network, regular],
    [t("pay.pdf.token"), `${payment.token.symbol} ${payment.token.address}`, mono],
    [t("pay.pdf.paidTo"), payment.receivingAddress, mono],
    ...payment.txHashes.map(
      (hash) => [t("pay.pdf.transaction"), groupedHash(hash), mono] as [string, string, PDFFont],
    ),
    [t("pay.pdf.reference"), payment.reference, mono],
  ];
  const labelWidth = 110;
  for (const [label, value, font] of rows) {
    const top = y;
    // A label longer than its column ("Montant à payer") wraps within it, and the row grows to hold it.
    let labelY = y;
    for (const line of wrap(regular, label, 10.5, labelWidth - 8)) {
      page.drawText(line, { x: MARGIN, y: labelY, size: 10.5, font: regular, color: GREY });
      labelY -= 10.5 * 1.35;
    }
    text(value, font, font === mono ? 9.5 : 10.5, rgb(0, 0, 0), MARGIN + labelWidth, WIDTH - labelWidth);
    y = Math.min(y, labelY + 10.5 * 1.35 - 14, top - 14) - 6;
  }
  y -= 16;
  text(t("pay.pdf.verified"), regular, 10, GREY);
  text(t("pay.pdf.checkOnline", { url: receiptUrl }), regular, 10, GREY);
  page.drawText(printable(regular, t("pay.pdf.madeBy", { date: utc(new Date().toISOString()) })), {
    x: MARGIN,
    y: MARGIN - 20,
    size: 8.5,
    font: regular,
    color: GREY,
  });
  return pdf.save();
}

export async function downloadReceipt(input: ReceiptInput) {
  const bytes = await createReceiptPdf(input);
  saveFile(
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }),
    `receipt-${input.payment.reference.slice(0, 8)}.pdf`,
  );
}
