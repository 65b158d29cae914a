import { PAYMENT_STATUS_NAMES } from "@common/status-names.ts";
import { emailDocument, emailTime, escapeHtml } from "../../lib/email-html.ts";
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
};

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
  const rows: [string, string][] = [
    ["Business", input.merchantName],
    ["Reference", p.reference],
    ...(p.orderId ? ([["Order", p.orderId]] as [string, string][]) : []),
    ...(p.description ? ([["Description", p.description]] as [string, string][]) : []),
    ...(p.amountUsdCents !== null
      ? ([["Amount", `$${formatCents(p.amountUsdCents)}`]] as [string, string][])
      : []),
    ["Amount due", `${formatTokens(p.amountDue, p.tokenDecimals)} ${symbol}`],
    ["Amount received", `${formatTokens(p.amountReceived, p.tokenDecimals)} ${symbol}`],
    ...(rateE18 !== null
      ? ([["Rate", `1 ${symbol} = $${formatTokens(rateE18, 18)}`]] as [string, string][])
      : []),
    ...(rateE18 !== null
      ? ([["USD value", `$${formatCents(usdCentsOf(p.amountReceived, p.tokenDecimals, rateE18))}`]] as [
          string,
          string,
        ][])
      : []),
    // The one vocabulary (common/status-names.ts): "Paid", "Paid late".
    ["Status", PAYMENT_STATUS_NAMES[late ? "paid_late" : "completed"]],
    ...(p.completedAt ? ([["Paid at", emailTime(p.completedAt, input.reader)]] as [string, string][]) : []),
  ];
  const txLinks = txHashes.map((hash) => ({
    hash,
    url: input.explorerUrl ? `${input.explorerUrl}/tx/${hash}` : null,
  }));
  const dashboardUrl = `${input.publicUrl}/payments`;
  const payUrl = `${input.publicUrl}/pay/${p.reference}`;
  const merchant = input.kind === "merchant";
  // The merchant and what the payment was for: "Payment received: Corner Coffee, order 1042".
  const what = p.orderId ? `order ${p.orderId}` : p.description ? p.description.slice(0, 60) : p.reference;
  const subject = merchant
    ? `${late ? "Payment received after expiry" : "Payment received"}: ${input.merchantName}, ${what}`
    : `Your payment to ${input.merchantName}, ${what}`;
  const intro = merchant
    ? late
      ? "A payment was paid after it expired. The funds are in your wallet; decide whether to fulfil the order."
      : "A payment to your business has completed."
    : `Thank you. Your payment to ${input.merchantName} has been received.`;
  const link = merchant
    ? { label: "Open your dashboard", url: dashboardUrl }
    : { label: "View the payment", url: payUrl };

  const text = [
    intro,
    "",
    ...rows.map(([k, v]) => `${k}: ${v}`),
    ...txLinks.map((t) => `Transaction: ${t.url ?? t.hash}`),
    "",
    `${link.label}: ${link.url}`,
    "",
    "CPXTB Pay",
  ].join("\n");

  const cell = "padding:4px 12px 4px 0;vertical-align:top";
  const html = emailDocument(`<p>${escapeHtml(intro)}</p>
<table role="presentation" style="border-collapse:collapse">
${rows.map(([k, v]) => `<tr><th scope="row" style="${cell};text-align:left;color:#555;font-weight:600">${escapeHtml(k)}</th><td style="${cell}">${escapeHtml(v)}</td></tr>`).join("\n")}
${txLinks
  .map(
    (t) =>
      `<tr><th scope="row" style="${cell};text-align:left;color:#555;font-weight:600">Transaction</th><td style="${cell};word-break:break-all">${
        t.url ? `<a href="${escapeHtml(t.url)}">${escapeHtml(t.hash)}</a>` : escapeHtml(t.hash)
      }</td></tr>`,
  )
  .join("\n")}
</table>
<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`);
  return { to: input.to, subject: oneLine(subject), text, html };
}
