import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  type PDFRef,
} from "pdf-lib";
import { vi } from "vitest";

/**
 * The PDF fonts' files (`lib/pdf-fonts.ts` imports them with `?url`, which is a path from the repository's root
 * under Vitest) served to `fetch` from disk. Returns the paths asked for.
 */
export function serveFontFiles(): string[] {
  const asked: string[] = [];
  vi.stubGlobal("fetch", async (url: string) => {
    asked.push(url);
    return new Response(await readFile(join(import.meta.dirname, "../../..", url.split("?")[0]!)));
  });
  return asked;
}

export type DrawnText = { font: string; text: string };

function decodeStream(pdf: PDFDocument, ref: unknown): string {
  const stream = pdf.context.lookup(ref as PDFRef);
  return stream instanceof PDFRawStream
    ? new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode())
    : "";
}

/** A font's glyph codes to the characters they draw, from its ToUnicode map (embedded fonts only). */
function toUnicode(pdf: PDFDocument, font: PDFDict): Map<string, string> | null {
  const ref = font.get(PDFName.of("ToUnicode"));
  if (!ref) return null;
  const map = new Map<string, string>();
  const cmap = decodeStream(pdf, ref);
  const chars = (hex: string) =>
    String.fromCodePoint(...new Uint16Array((hex.match(/..../g) ?? []).map((h) => Number.parseInt(h, 16))));
  for (const [, code, unicode] of cmap.matchAll(/<([0-9a-fA-F]{4})>\s*<([0-9a-fA-F]+)>/g))
    map.set(code!.toUpperCase(), chars(unicode!));
  return map;
}

/**
 * The texts the first page draws, in order, each with the name of its font: a standard font's hex string is its
 * characters; an embedded font's glyphs are read back through its ToUnicode map. A run drawn right to left
 * (Arabic: its glyphs in visual order) is returned in reading order.
 */
export async function drawnTexts(bytes: Uint8Array): Promise<DrawnText[]> {
  const pdf = await PDFDocument.load(bytes);
  const page = pdf.getPages()[0]!;
  const fonts = page.node.Resources()!.lookup(PDFName.of("Font"), PDFDict);
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray() : [contents];
  const source = streams.map((ref) => decodeStream(pdf, ref)).join("\n");
  const drawn: DrawnText[] = [];
  let font = "";
  for (const [, name, hex] of source.matchAll(/\/(\S+) [\d.]+ Tf|<([0-9A-Fa-f]*)> Tj/g)) {
    if (name) {
      font = name;
      continue;
    }
    const dict = fonts.lookup(PDFName.of(font), PDFDict);
    const base = dict.get(PDFName.of("BaseFont"))!.toString().slice(1);
    const map = toUnicode(pdf, dict);
    if (!map) {
      drawn.push({
        font: base,
        text: String.fromCharCode(...(hex!.match(/../g) ?? []).map((h) => Number.parseInt(h, 16))),
      });
      continue;
    }
    const glyphs = (hex!.match(/..../g) ?? []).map((code) => map.get(code.toUpperCase()) ?? "\uFFFD");
    const rtl = glyphs.some((g) => /[\u0600-\u06ff]/.test(g));
    drawn.push({ font: base, text: (rtl ? glyphs.reverse() : glyphs).join("") });
  }
  return drawn;
}

/** The names of the fonts embedded in the PDF (their files inside it; the standard fonts have none). */
export async function embeddedFonts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.context
    .enumerateIndirectObjects()
    .flatMap(([, object]) =>
      object instanceof PDFDict && object.has(PDFName.of("FontFile2"))
        ? [object.get(PDFName.of("FontName"))!.toString().slice(1)]
        : [],
    );
}
