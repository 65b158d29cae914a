import { formatDecimal, numberShape, usdShape } from "@common/locale-format.ts";
import type { Locale } from "@common/locales.ts";
import { emailDocument, emailTime, escapeHtml } from "../../lib/email-html.ts";
import { translator } from "../../lib/i18n.ts";
import type { Mail } from "../../lib/mailer.ts";
import { formatCents, formatTokens } from "../payments/amounts.ts";
import type { PaymentRow, TransferRow } from "../payments/repository.ts";

export type PaymentEmailInput = {
  kind: "merchant" | "payer";
  to: string;
  eventType: string;
  payment: PaymentRow;
  merchantName: string;
  tokenSymbol: string;
  transfers: TransferRow[];
  explorerUrl: string | undefined;
  publicUrl: string;
  /** The recipient's time zone and language when known (the merchant's owner); else UTC, in English. */
  reader?: { timeZone: string | null; locale: string | null };
  /** The language the email is written in (decision 038): the owner's, or the payer's pay pages'; else English. */
  language?: Locale;
};

/** Amounts as the recipient's language writes them; English as before ("1234.5", "$12.50"), never rounded. */
function amountWriters(language: Locale) {
  if (language === "en")
    return { tokens: (decimal: string) => decimal, usd: (decimal: string) => `$${decimal}` };
  return {
    tokens: (decimal: string) => formatDecimal(decimal, numberShape(language)),
    usd: (decimal: string) => formatDecimal(decimal, usdShape(language), { minDecimals: 2 }),
  };
}

/** USD cents of `amount` base units at a rate of 1e18 per USD, rounded half up (as the reports round). */
function usdCentsOf(amount: bigint, decimals: number, rateE18: bigint): bigint {
  const scale = 10n ** BigInt(decimals + 16);
  return (2n * amount * rateE18 + scale) / (2n * scale);
}

/** A header line may carry no line break (nodemailer encodes the rest). */
function oneLine(value: string) {
  return value.replace(/[\r\n]+/g, " ").slice(0, 150);
}

/**
 * The merchant's notification or the payer's receipt of a completed (or late-paid) payment: plain text and HTML,
 * every value escaped in the HTML part.
 */
export function renderPaymentEmail(input: PaymentEmailInput): Mail {
  const p = input.payment;
  const symbol = input.tokenSymbol;
  const late = input.eventType === "payment.paid_late";
  const rateE18 = p.priceE18 ?? p.completedPriceE18;
  const txHashes = [...new Set(input.transfers.filter((t) => t.orphanedAt === null).map((t) => t.txHash))];
  const language = input.language ?? "en";
  const t = translator(language);
  const write = amountWriters(language);
  const rows: [string, string][] = [
    [t("email.payment.row.business"), input.merchantName],
    [t("email.payment.row.reference"), p.reference],
    ...(p.orderId ? ([[t("email.payment.row.order"), p.orderId]] as [string, string][]) : []),
    ...(p.description ? ([[t("email.payment.row.description"), p.description]] as [string, string][]) : []),
    ...(p.amountUsdCents !== null
      ? ([[t("email.payment.row.amount"), write.usd(formatCents(p.amountUsdCents))]] as [string, string][])
      : []),
    [
      t("email.payment.row.amountDue"),
      `${write.tokens(formatTokens(p.amountDue, p.tokenDecimals))} ${symbol}`,
    ],
    [
      t("email.payment.row.amountReceived"),
      `${write.tokens(formatTokens(p.amountReceived, p.tokenDecimals))} ${symbol}`,
    ],
    ...(rateE18 !== null
      ? ([[t("email.payment.row.rate"), `1 ${symbol} = ${write.usd(formatTokens(rateE18, 18))}`]] as [
          string,
          string,
        ][])
      : []),
    ...(rateE18 !== null
      ? ([
          [
            t("email.payment.row.usdValue"),
            write.usd(formatCents(usdCentsOf(p.amountReceived, p.tokenDecimals, rateE18))),
          ],
        ] as [string, string][])
      : []),
    // The one vocabulary (common/status-names.ts): "Paid", "Paid late".
    [
      t("email.payment.row.status"),
      late ? t("email.payment.status.paidLate") : t("email.payment.status.paid"),
    ],
    ...(p.completedAt
      ? ([[t("email.payment.row.paidAt"), emailTime(p.completedAt, input.reader)]] as [string, string][])
      : []),
  ];
  const txLinks = txHashes.map((hash) => ({
    hash,
    url: input.explorerUrl ? `${input.explorerUrl}/tx/${hash}` : null,
  }));
  const dashboardUrl = `${input.publicUrl}/payments`;
  const payUrl = `${input.publicUrl}/pay/${p.reference}`;
  const merchant = input.kind === "merchant";
  // The merchant and what the payment was for: "Payment received: Corner Coffee, order 1042".
  const what = p.orderId
    ? t("email.payment.what.order", { order: p.orderId })
    : p.description
      ? p.description.slice(0, 60)
      : p.reference;
  const named = { merchant: input.merchantName, what };
  const subject = merchant
    ? late
      ? t("email.payment.subject.merchantLate", named)
      : t("email.payment.subject.merchant", named)
    : t("email.payment.subject.payer", named);
  const intro = merchant
    ? late
      ? t("email.payment.intro.merchantLate")
      : t("email.payment.intro.merchant")
    : t("email.payment.intro.payer", { merchant: input.merchantName });
  const link = merchant
    ? { label: t("email.payment.link.dashboard"), url: dashboardUrl }
    : { label: t("email.payment.link.payment"), url: payUrl };

  const text = [
    intro,
    "",
    ...rows.map(([k, v]) => `${k}: ${v}`),
    ...txLinks.map((tx) => `${t("email.payment.row.transaction")}: ${tx.url ?? tx.hash}`),
    "",
    `${link.label}: ${link.url}`,
    "",
    "CPXTB Pay",
  ].join("\n");

  const cell = "padding:4px 12px 4px 0;vertical-align:top";
  const html = emailDocument(
    `<p>${escapeHtml(intro)}</p>
<table role="presentation" style="border-collapse:collapse">
${rows.map(([k, v]) => `<tr><th scope="row" style="${cell};text-align:start;color:#555;font-weight:600">${escapeHtml(k)}</th><td style="${cell}">${escapeHtml(v)}</td></tr>`).join("\n")}
${txLinks
  .map(
    (tx) =>
      `<tr><th scope="row" style="${cell};text-align:start;color:#555;font-weight:600">${escapeHtml(t("email.payment.row.transaction"))}</th><td style="${cell};word-break:break-all" dir="ltr">${
        tx.url ? `<a href="${escapeHtml(tx.url)}">${escapeHtml(tx.hash)}</a>` : escapeHtml(tx.hash)
      }</td></tr>`,
  )
  .join("\n")}
</table>
<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    language,
  );
  return { to: input.to, subject: oneLine(subject), text, html };
}
