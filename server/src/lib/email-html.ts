// Every email goes out as HTML with a plain-text part (issue 36). Messages written as text get their HTML part
// here, in the same plain shell as the payment emails; a message with its own HTML (a table of values) keeps it.

import { intlTag } from "@common/locale-format.ts";
import { directionOf, type Locale, matchLocale } from "@common/locales.ts";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * The document around an email's HTML body: readable without any stylesheet, light on every client, in its
 * language and direction (decision 038).
 */
export function emailDocument(body: string, language: Locale = "en"): string {
  return `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#111;background:#fff;line-height:1.5;font-size:15px">
${body}
<p style="color:#555">CPXTB Pay</p>
</body></html>`;
}

const URL_PATTERN = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)'\]]/g;

/** One line of text as HTML: escaped, its web addresses as links (left to right in a right-to-left email too). */
function lineToHtml(line: string): string {
  let html = "";
  let last = 0;
  for (const match of line.matchAll(URL_PATTERN)) {
    const url = match[0];
    html += `${escapeHtml(line.slice(last, match.index))}<a href="${escapeHtml(url)}" dir="ltr" style="word-break:break-all">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return html + escapeHtml(line.slice(last));
}

/**
 * The HTML part of a message written as text, in the text's language: paragraphs at blank lines, line breaks kept,
 * links clickable. The text's closing signature ("CPXTB Pay") is left to the shell.
 */
export function textToHtml(text: string, language: Locale = "en"): string {
  const paragraphs = text
    .replace(/\r\n/g, "\n")
    .replace(/\n+CPXTB Pay\s*$/, "")
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${p.split("\n").map(lineToHtml).join("<br>\n")}</p>`);
  return emailDocument(paragraphs.join("\n"), language);
}

/**
 * A time as the recipient reads it, in their zone and language when known ("November 26, 2026 at 6:40 AM
 * (America/New_York)"), else in UTC, said so ("26 November 2026 at 11:40 UTC"): never a bare instant to be
 * misread as local time.
 */
export function emailTime(
  at: Date,
  reader: { timeZone?: string | null; locale?: string | null } = {},
): string {
  const timeZone = reader.timeZone || "UTC";
  const locale = reader.locale || "en-GB";
  let text: string;
  try {
    text = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone }).format(at);
  } catch {
    return emailTime(at, {});
  }
  return text + (timeZone === "UTC" ? " UTC" : ` (${timeZone})`);
}

/**
 * The tag an email's times are written with (decision 038): the reader's own tag when it names the email's
 * language (its region kept: "en-US", "de-AT"), else the email's language; Latin digits always, as its amounts.
 * An English email to a reader of another language keeps emailTime's default (en-GB) rather than a foreign date.
 */
export function timeLocaleOf(stored: string | null | undefined, language: Locale): string | null {
  if (stored && matchLocale(stored) === language) {
    try {
      return new Intl.Locale(stored, { numberingSystem: "latn" }).toString();
    } catch {
      // A tag Intl cannot read is written as the language alone.
    }
  }
  return language === "en" ? null : intlTag(language);
}
