import type { Locale } from "@common/locales";
import type { Payment } from "@common/payments";
import { PDFDocument, type PDFPage, rgb } from "pdf-lib";
import { t } from "@/i18n/i18n";
import { embedPdfFonts } from "@/lib/pdf-fonts";
import {
  type Direction,
  drawPieces,
  type FontStack,
  isolateLtr,
  linePieces,
  textWidth,
  widthOf,
} from "@/lib/pdf-text";
import { qrMatrix, saveFile } from "../components/qr-code";
import { formatDateTime, formatTokenAmount, formatUsdAmount } from "../format";

/**
 * A printable A4 poster of one payment (QR code, amount, merchant, reference, link), made in the browser. This
 * module and pdf-lib are loaded only when the merchant asks for a poster (a dynamic import of this file).
 */
export type PosterInput = {
  payment: Pick<
    Payment,
    "reference" | "amountDue" | "amountUsd" | "paymentUri" | "paymentUrl" | "description" | "expiresAt"
  >;
  merchant: { name: string; brandColor: string | null };
  /** The language of its words: the merchant's (the active one, whose merchant catalog is loaded). */
  locale?: Locale;
};

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;

function hexToRgb(hex: string | null) {
  if (!hex || !/^#[0-9a-f]{6}$/i.test(hex)) return rgb(0.184, 0.357, 0.827);
  const n = (i: number) => Number.parseInt(hex.slice(i, i + 2), 16) / 255;
  return rgb(n(1), n(3), n(5));
}

/** Straight quotes, as the standard fonts' posters always had. */
function plain(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"');
}

/** Shrinks `text` to fit `maxWidth` (down to `minSize`), then cuts it with an ellipsis. */
function fitted(stack: FontStack, text: string, size: number, maxWidth: number, minSize = 9) {
  let s = size;
  while (s > minSize && textWidth(stack, text, s, "auto") > maxWidth) s -= 0.5;
  let t = text;
  while (t.length > 1 && textWidth(stack, t, s, "auto") > maxWidth) t = `${t.slice(0, -4)}...`;
  return { text: t, size: s };
}

function centered(
  page: PDFPage,
  stack: FontStack,
  raw: string,
  y: number,
  size: number,
  color = rgb(0, 0, 0),
  direction: Direction | "auto" = "auto",
) {
  const { text, size: s } = fitted(stack, plain(raw), size, A4.width - 2 * MARGIN);
  const pieces = linePieces(stack, text, s, direction);
  drawPieces(page, pieces, (A4.width - widthOf(pieces)) / 2, y, s, color);
}

export async function createPosterPdf({
  payment,
  merchant,
  locale = "en",
}: PosterInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(t("merchant.poster.documentTitle", { merchant: merchant.name }));
  pdf.setSubject(t("merchant.poster.documentSubject", { reference: payment.reference }));
  pdf.setLanguage(locale);
  pdf.setCreator("CPXTB Pay");
  pdf.setProducer("CPXTB Pay");
  const page = pdf.addPage([A4.width, A4.height]);
  const words = {
    name: merchant.name,
    scan: t("merchant.poster.scanToPay"),
    amount: `${formatTokenAmount(payment.amountDue, locale)} CPXTB`,
    usd: payment.amountUsd
      ? t("merchant.poster.approx", { usd: isolateLtr(formatUsdAmount(payment.amountUsd, locale)) })
      : "",
    description: payment.description ?? "",
    openLink: t("merchant.poster.openLink"),
    reference: t("merchant.poster.reference", { reference: payment.reference }),
    validUntil: t("merchant.poster.validUntil", { date: formatDateTime(payment.expiresAt, locale) }),
    footer: t("merchant.poster.footer"),
  };
  // The fonts that write the merchant's language, and the merchant's name and description in whatever script.
  const { regular, bold, mono } = await embedPdfFonts(pdf, locale, Object.values(words).map(plain));
  const brand = hexToRgb(merchant.brandColor);
  const grey = rgb(0.3, 0.33, 0.4);

  page.drawRectangle({ x: 0, y: A4.height - 14, width: A4.width, height: 14, color: brand });
  let y = A4.height - 90;
  centered(page, bold, words.name, y, 30);
  y -= 34;
  centered(page, regular, words.scan, y, 16, grey);

  // The QR code, module by module (vector: sharp at any print size).
  const { data, size } = await qrMatrix(payment.paymentUri);
  const qrSide = 300;
  const cell = qrSide / size;
  const qrX = (A4.width - qrSide) / 2;
  y -= 24 + qrSide;
  page.drawRectangle({
    x: qrX - 6,
    y: y - 6,
    width: qrSide + 12,
    height: qrSide + 12,
    borderColor: rgb(0.85, 0.87, 0.92),
    borderWidth: 1,
    color: rgb(1, 1, 1),
  });
  data.forEach((row, r) => {
    row.forEach((dark, c) => {
      if (dark) {
        page.drawRectangle({
          x: qrX + c * cell,
          y: y + qrSide - (r + 1) * cell,
          width: cell,
          height: cell,
          color: rgb(0, 0, 0),
        });
      }
    });
  });

  y -= 50;
  // The amount and the link are left to right in every language.
  centered(page, bold, words.amount, y, 28, rgb(0, 0, 0), "ltr");
  if (words.usd) {
    y -= 24;
    centered(page, regular, words.usd, y, 14, grey);
  }
  if (words.description) {
    y -= 28;
    centered(page, regular, words.description, y, 14);
  }
  y -= 36;
  centered(page, regular, words.openLink, y, 11, grey);
  y -= 18;
  centered(page, mono, payment.paymentUrl, y, 11, brand, "ltr");
  y -= 30;
  centered(page, regular, words.reference, y, 10, grey);
  y -= 15;
  centered(page, regular, words.validUntil, y, 10, grey);
  centered(page, regular, words.footer, MARGIN - 20, 9, grey);
  return pdf.save();
}

export async function downloadPoster(input: PosterInput) {
  const bytes = await createPosterPdf(input);
  saveFile(
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }),
    `cpxtb-poster-${input.payment.reference.slice(0, 8)}.pdf`,
  );
}
