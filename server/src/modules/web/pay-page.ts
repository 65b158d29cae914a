import type { Locale } from "@common/locales.ts";
import { type PublicPayment, qrQueryKey, referenceParams, SERVER_NOW_KEY } from "@common/payments.ts";
import { qrSvgPath } from "@common/qr.ts";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../errors.ts";
import { requestLocale } from "../../lib/i18n.ts";
import type { IndexHtml } from "./index-html.ts";
import { pageHtmlText } from "./page-meta.ts";
import type { PageRenderer, PageTranslator } from "./routes.ts";

const PAY_PATH = /^\/pay\/([^/]+)\/?$/;
const EASY_PAYMENT_PATH = /^\/easy-payment\/?$/;

/**
 * The payment reference of a checkout the server renders (`/pay/{reference}`, `/easy-payment?ref=`), as the page
 * reads it (it may not have a reference's shape), or null for any other page.
 */
export function checkoutReference(path: string, search: string): string | null {
  const segment = PAY_PATH.exec(path)?.[1];
  let reference: string;
  if (segment !== undefined) {
    try {
      reference = decodeURIComponent(segment);
    } catch {
      return null; // the browser draws what it makes of a malformed escape
    }
  } else if (EASY_PAYMENT_PATH.test(path)) {
    // Without a ref the page is the look-up form, which the browser draws.
    const ref = new URLSearchParams(search).get("ref")?.trim();
    if (!ref) return null;
    reference = ref;
  } else {
    return null;
  }
  return reference;
}

export type PayPageSources = {
  index: IndexHtml;
  render: PageRenderer;
  translate: PageTranslator;
  /** The payment's public view, as `GET /api/payments/public/:reference` answers it (null: no such payment). */
  publicPayment: (reference: string) => Promise<PublicPayment | null>;
  /** `GET /api/chain-config`'s answer for this request, or null without a chain. */
  chainConfig: (request: FastifyRequest) => unknown;
  origin: string;
  now?: () => number;
  /** The page's own code as modulepreload links, for its path and language (none: the app loads it itself). */
  pageCode?: (path: string, locale: Locale) => string;
};

/**
 * The pay page with the payment's state in its HTML (decision 017): merchant, amounts, the QR code as inline SVG,
 * the countdown from the server's clock and the status, plus the data it was rendered with, so the browser
 * hydrates it and subscribes to /ws. An unknown reference answers 404 with the page's explanation.
 */
export async function renderPayPage(
  request: FastifyRequest,
  url: { path: string; search: string },
  reference: string,
  sources: PayPageSources,
): Promise<{ html: string; status: number; locale: Locale }> {
  const valid = referenceParams.safeParse({ reference }).success;
  const payment = valid ? await findPayment(sources, reference) : null;
  const data: Record<string, unknown> = {
    [`/api/payments/public/${encodeURIComponent(reference)}`]: payment,
    [SERVER_NOW_KEY]: (sources.now ?? Date.now)(),
  };
  const chain = sources.chainConfig(request);
  if (chain) data["/api/chain-config"] = chain;
  if (payment) data[qrQueryKey(payment.paymentUri)[0]] = qrSvgPath(payment.paymentUri);
  const locale = requestLocale(request, payment?.payerLanguage ?? payment?.merchant.payLanguage);
  const markup = await sources.render(url.search ? `${url.path}?${url.search}` : url.path, data, locale);
  const meta = {
    title: await sources.translate(locale, "pay.meta.title"),
    description: payment
      ? await sources.translate(locale, "pay.meta.description", {
          merchant: payment.merchant.name,
          token: payment.token.symbol,
        })
      : await sources.translate(locale, "pay.meta.notFound"),
  };
  const pageUrl = `${sources.origin}${url.path}${url.search ? `?${url.search}` : ""}`;
  const html = pageHtmlText(sources.index, meta, pageUrl, sources.origin, {
    body: markup === null ? undefined : { markup, data },
    head: sources.pageCode?.(url.path, locale),
    locale,
  });
  return { html, status: payment ? 200 : 404, locale };
}

async function findPayment(sources: PayPageSources, reference: string): Promise<PublicPayment | null> {
  try {
    return await sources.publicPayment(reference);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}
