import { directionOf, type Locale } from "@common/locales";
import { type PDFDocument, type PDFFont, StandardFonts } from "pdf-lib";
import arabicBold from "@/assets/pdf-fonts/noto-sans-arabic-bold.ttf?url";
import arabicRegular from "@/assets/pdf-fonts/noto-sans-arabic-regular.ttf?url";
import latinBold from "@/assets/pdf-fonts/noto-sans-latin-bold.ttf?url";
import latinRegular from "@/assets/pdf-fonts/noto-sans-latin-regular.ttf?url";
import hanziRegular from "@/assets/pdf-fonts/noto-sans-sc-common-regular.ttf?url";
import chineseBold from "@/assets/pdf-fonts/noto-sans-sc-words-bold.ttf?url";
import chineseRegular from "@/assets/pdf-fonts/noto-sans-sc-words-regular.ttf?url";
import { type Direction, type FontStack, type StackFont, stackFont } from "./pdf-text";

/**
 * The fonts of a PDF made in the browser (decision 038). The standard PDF fonts (WinAnsi, about Latin-1) need
 * nothing loaded and write English, Spanish, Portuguese, French, German and Indonesian. Turkish, Chinese and
 * Arabic are written with Noto subsets (client/src/assets/pdf-fonts, made by scripts/subset-pdf-fonts.py), which
 * are fetched, with @pdf-lib/fontkit to embed them, only when such a PDF is made: separate files and a chunk of
 * their own, never in a page's JavaScript. A name or description in another script than the document's gets the
 * font that draws it as a fallback (Latin letters beyond Latin-1, Arabic, the 3,755 common hanzi); a character no
 * font has is drawn as "?".
 */
export type PdfFonts = { regular: FontStack; bold: FontStack; mono: FontStack; direction: Direction };

/** The languages the standard fonts cannot write, and the Noto subsets that write them. */
const NOTO_FONTS: Partial<Record<Locale, { regular: string[]; bold: string[] }>> = {
  tr: { regular: [latinRegular], bold: [latinBold] },
  "zh-CN": { regular: [chineseRegular], bold: [chineseBold] },
  ar: { regular: [arabicRegular, latinRegular], bold: [arabicBold, latinBold] },
};

const ARABIC = /[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufefc]/;
const HANZI = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;
const LATIN = /[\u0100-\u024f\u1e00-\u1eff\u2000-\u206f\u20a0-\u20cf]/;

/** Direction marks and isolates: never drawn (`pdf-text.ts` orders the runs). */
const BIDI_CONTROL = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/;

const fetched = new Map<string, Promise<ArrayBuffer>>();

/** A font file, fetched once per page (a failed fetch is asked again next time). */
function fontBytes(url: string): Promise<ArrayBuffer> {
  let bytes = fetched.get(url);
  if (!bytes) {
    bytes = fetch(url).then((response) => {
      if (!response.ok) throw new Error(`The PDF's font could not be loaded (${response.status})`);
      return response.arrayBuffer();
    });
    bytes.catch(() => fetched.delete(url));
    fetched.set(url, bytes);
  }
  return bytes;
}

async function embedNoto(pdf: PDFDocument, url: string): Promise<PDFFont> {
  const [fontkit, bytes] = await Promise.all([import("@pdf-lib/fontkit"), fontBytes(url)]);
  pdf.registerFontkit(fontkit.default);
  // Only the glyphs drawn go into the PDF. (The files' glyph records are padded to even lengths, which
  // @pdf-lib/fontkit's subsetter needs: scripts/subset-pdf-fonts.py.)
  return pdf.embedFont(bytes, { subset: true });
}

/** The characters of `texts` that none of `stack`'s fonts has. */
function missing(stack: FontStack, texts: readonly string[]): string {
  const chars = new Set<string>();
  for (const text of texts)
    for (const char of text)
      if (!BIDI_CONTROL.test(char) && !stack.some((f) => f.chars.has(char.codePointAt(0)!))) chars.add(char);
  return [...chars].join("");
}

/** The fonts for a PDF in `locale` that draws `texts` (every string it will draw, to choose the fallbacks). */
export async function embedPdfFonts(
  pdf: PDFDocument,
  locale: Locale,
  texts: readonly string[],
): Promise<PdfFonts> {
  const standard = async (name: StandardFonts) => stackFont(await pdf.embedFont(name));
  const noto = async (url: string, fauxBold = false) => stackFont(await embedNoto(pdf, url), fauxBold);
  const own = NOTO_FONTS[locale];
  let regular: StackFont[];
  let bold: StackFont[];
  if (own) {
    [regular, bold] = await Promise.all([
      Promise.all(own.regular.map((url) => noto(url))),
      Promise.all(own.bold.map((url) => noto(url))),
    ]);
  } else {
    regular = [await standard(StandardFonts.Helvetica)];
    bold = [await standard(StandardFonts.HelveticaBold)];
  }
  const lacking = missing(regular, texts) + missing(bold, texts);
  if (LATIN.test(lacking) && !own) {
    regular.push(await noto(latinRegular));
    bold.push(await noto(latinBold));
  }
  if (ARABIC.test(lacking) && locale !== "ar") {
    regular.push(await noto(arabicRegular));
    bold.push(await noto(arabicBold));
  }
  if (HANZI.test(lacking)) {
    // One weight: bold hanzi beyond the document's own words are the regular ones drawn outlined.
    const hanzi = await noto(hanziRegular);
    regular.push(hanzi);
    bold.push({ ...hanzi, fauxBold: true });
  }
  return {
    regular,
    bold,
    mono: [await standard(StandardFonts.Courier)],
    direction: directionOf(locale),
  };
}
