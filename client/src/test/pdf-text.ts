import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFPage,
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

/** WinAnsi's typographic signs at 0x80-0x9f (the en dash, quotes, the euro); the rest is Latin-1. */
const WIN_ANSI: Record<number, number> = Object.fromEntries([
  [0x80, 0x20ac],
  [0x82, 0x201a],
  [0x83, 0x192],
  [0x84, 0x201e],
  [0x85, 0x2026],
  [0x86, 0x2020],
  [0x87, 0x2021],
  [0x88, 0x2c6],
  [0x89, 0x2030],
  [0x8a, 0x160],
  [0x8b, 0x2039],
  [0x8c, 0x152],
  [0x8e, 0x17d],
  [0x91, 0x2018],
  [0x92, 0x2019],
  [0x93, 0x201c],
  [0x94, 0x201d],
  [0x95, 0x2022],
  [0x96, 0x2013],
  [0x97, 0x2014],
  [0x98, 0x2dc],
  [0x99, 0x2122],
  [0x9a, 0x161],
  [0x9b, 0x203a],
  [0x9c, 0x153],
  [0x9e, 0x17e],
  [0x9f, 0x178],
]);

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
 * characters (WinAnsi); an embedded font's glyphs are read back through its ToUnicode map. A run drawn right to left
 * (Arabic: its glyphs in visual order) is returned in reading order.
 */
export async function drawnTexts(bytes: Uint8Array): Promise<DrawnText[]> {
  return (await drawnPages(bytes))[0]!;
}

/** The texts of every page (`drawnTexts` of each). */
export async function drawnPages(bytes: Uint8Array): Promise<DrawnText[][]> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.getPages().map((page) => pageTexts(pdf, page));
}

function pageTexts(pdf: PDFDocument, page: PDFPage): DrawnText[] {
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
      const codes = (hex!.match(/../g) ?? []).map((h) => Number.parseInt(h, 16));
      drawn.push({ font: base, text: String.fromCharCode(...codes.map((c) => WIN_ANSI[c] ?? c)) });
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
