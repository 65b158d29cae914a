import {
  type Color,
  type PDFFont,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  setLineWidth,
  setStrokingColor,
  setTextRenderingMode,
  TextRenderingMode,
} from "pdf-lib";

/**
 * Text in the PDFs the browser makes (receipt, report, poster) in any script: each character is drawn by the first
 * font of a stack that has it (a standard font, or Noto subsets, `pdf-fonts.ts`), and a line holding Arabic is put
 * in visual order here. fontkit shapes an Arabic run (joined letter forms, lam-alef) and reverses its glyphs, but it
 * orders nothing beyond that run: a sentence mixing Arabic with Latin words, numbers or addresses is split into
 * runs of one direction (a reduced Unicode bidi algorithm: strong letters and digits, neutrals resolved by their
 * neighbours, else by the paragraph's direction), placed right to left in a right-to-left paragraph.
 */
export type StackFont = {
  font: PDFFont;
  chars: ReadonlySet<number>;
  /** A regular font standing in for a bold one (the common hanzi have one weight): drawn filled and outlined. */
  fauxBold?: boolean;
};
/** The fonts of one style, in order of preference. */
export type FontStack = readonly StackFont[];
export type Direction = "ltr" | "rtl";

export function stackFont(font: PDFFont, fauxBold = false): StackFont {
  return { font, chars: new Set(font.getCharacterSet()), fauxBold };
}

const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const LTR = /[\p{L}\p{N}]/u;
const BIDI_CONTROLS = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/;
const BIDI_CONTROLS_ALL = new RegExp(BIDI_CONTROLS.source, "g");
/** Left-to-right isolate and its end: `isolateLtr` wraps a value (a price) that keeps its order in any sentence. */
const LRI = "\u2066";
const PDI = "\u2069";
export function isolateLtr(value: string): string {
  return `${LRI}${value}${PDI}`;
}
const MIRRORED: Record<string, string> = {
  "(": ")",
  ")": "(",
  "[": "]",
  "]": "[",
  "{": "}",
  "}": "{",
  "<": ">",
  ">": "<",
  "«": "»",
  "»": "«",
};

/** One font's part of a line, in visual order, ready to be drawn left to right. */
export type Piece = { text: string; font: StackFont; width: number };

function fontFor(stack: FontStack, code: number): StackFont | undefined {
  return stack.find((f) => f.chars.has(code));
}

/** Splits `text` (logical order) into runs of one font: a neutral (space, punctuation) stays in the run's font. */
function byFont(stack: FontStack, text: string): { text: string; font: StackFont }[] {
  const runs: { text: string; font: StackFont }[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const current = runs.at(-1);
    let font =
      current && !LTR.test(char) && !RTL.test(char) && current.font.chars.has(code)
        ? current.font
        : fontFor(stack, code);
    let drawn = char;
    // A character no font of the stack has is shown as "?" rather than failing.
    if (!font) {
      drawn = "?";
      font = fontFor(stack, 63) ?? stack[0]!;
    }
    if (current && current.font === font) current.text += drawn;
    else runs.push({ text: drawn, font });
  }
  return runs;
}

type Run = { text: string; rtl: boolean };

/** Runs of one direction, in logical order (neutrals take their neighbours' direction when both agree). */
function byDirection(text: string, base: Direction): Run[] {
  // A left-to-right isolate (U+2066 ... U+2069 around a price inside a sentence) is one left-to-right unit.
  let isolated = false;
  const marked = Array.from(text).flatMap((c) => {
    if (c === LRI || c === PDI) {
      isolated = c === LRI;
      return [];
    }
    return [{ c, isolated }];
  });
  const chars = marked.map((m) => m.c).filter((c) => !BIDI_CONTROLS.test(c));
  const strong = marked
    .filter((m) => !BIDI_CONTROLS.test(m.c))
    .map(({ c, isolated }) => (isolated ? "l" : RTL.test(c) ? "r" : LTR.test(c) ? "l" : null));
  const baseDir = base === "rtl" ? "r" : "l";
  const resolved = strong.map((dir, i) => {
    if (dir) return dir;
    let before: string | null = null;
    for (let j = i - 1; j >= 0 && !before; j--) before = strong[j] ?? null;
    let after: string | null = null;
    for (let j = i + 1; j < chars.length && !after; j++) after = strong[j] ?? null;
    return (before ?? baseDir) === (after ?? baseDir) ? (before ?? baseDir) : baseDir;
  });
  const runs: Run[] = [];
  chars.forEach((c, i) => {
    const rtl = resolved[i] === "r";
    const last = runs.at(-1);
    if (last && last.rtl === rtl) last.text += c;
    else runs.push({ text: c, rtl });
  });
  return runs;
}

/**
 * The pieces of one line in visual order. `direction` is the paragraph's; a left-to-right value (an amount, an
 * address, a reference) passes "ltr" and keeps its characters' order whatever the page's direction.
 */
export function linePieces(
  stack: FontStack,
  raw: string,
  size: number,
  paragraph: Direction | "auto",
): Piece[] {
  // Direction marks (Intl puts one before an Arabic price) are not drawn: the runs are ordered here.
  const text = raw.replace(BIDI_CONTROLS_ALL, "");
  // "auto": the direction of the first letter (a name on an English page may be Arabic).
  const direction =
    paragraph === "auto"
      ? RTL.test(Array.from(text).find((c) => RTL.test(c) || LTR.test(c)) ?? "")
        ? "rtl"
        : "ltr"
      : paragraph;
  const measured = (runs: { text: string; font: StackFont }[]) =>
    runs.map((r) => ({ ...r, width: r.font.font.widthOfTextAtSize(r.text, size) }));
  if (direction === "ltr" && !RTL.test(text)) return measured(byFont(stack, text));
  let runs = byDirection(raw, direction);
  if (direction === "rtl") runs = runs.reverse();
  return measured(
    runs.flatMap((run) => {
      const parts = byFont(stack, run.text);
      if (!run.rtl) return parts;
      // fontkit shapes and reverses a run holding Arabic; the other parts of a right-to-left run (spaces,
      // punctuation) are reversed here, their brackets mirrored.
      return parts.reverse().map((part) =>
        RTL.test(part.text)
          ? part
          : {
              ...part,
              text: Array.from(part.text)
                .reverse()
                .map((c) => MIRRORED[c] ?? c)
                .join(""),
            },
      );
    }),
  );
}

export function widthOf(pieces: readonly Piece[]): number {
  return pieces.reduce((sum, p) => sum + p.width, 0);
}

export function textWidth(
  stack: FontStack,
  text: string,
  size: number,
  direction: Direction | "auto" = "ltr",
) {
  return widthOf(linePieces(stack, text, size, direction));
}

/** Draws a line's pieces from `x` (its left end). */
export function drawPieces(
  page: PDFPage,
  pieces: readonly Piece[],
  x: number,
  y: number,
  size: number,
  color: Color,
) {
  let at = x;
  for (const piece of pieces) {
    if (piece.font.fauxBold) {
      page.pushOperators(
        pushGraphicsState(),
        setTextRenderingMode(TextRenderingMode.FillAndOutline),
        setLineWidth(size / 30),
        setStrokingColor(color),
      );
    }
    page.drawText(piece.text, { x: at, y, size, font: piece.font.font, color });
    if (piece.font.fauxBold) page.pushOperators(popGraphicsState());
    at += piece.width;
  }
}

/**
 * Splits `text` into lines no wider than `width`: at spaces, and within a word longer than the line (a hash, or
 * Chinese, which is written without spaces and may break between any two characters).
 */
export function wrapText(
  stack: FontStack,
  text: string,
  size: number,
  width: number,
  direction: Direction | "auto" = "ltr",
): string[] {
  const fits = (line: string) => textWidth(stack, line, size, direction) <= width;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    let next = line ? `${line} ${word}` : word;
    while (!fits(next) && Array.from(next).length > 1) {
      if (line) {
        lines.push(line);
        line = "";
        next = word;
        continue;
      }
      const chars = Array.from(next);
      let cut = chars.length - 1;
      while (cut > 1 && !fits(chars.slice(0, cut).join(""))) cut--;
      lines.push(chars.slice(0, cut).join(""));
      next = chars.slice(cut).join("");
    }
    line = next;
  }
  if (line) lines.push(line);
  return lines;
}
