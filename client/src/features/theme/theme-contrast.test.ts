import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every text colour of the theme on every surface it is used on reaches WCAG AA (4.5:1 for body text), in both
 * themes. The tokens are read from index.css itself, so a new colour that breaks a pair fails here before a person
 * has to squint at it. axe's `color-contrast` over every route (e2e/accessibility.spec.ts) checks the rendered pages.
 */
const css = readFileSync(resolve(process.cwd(), "client/src/index.css"), "utf8");

function block(selector: RegExp): Record<string, string> {
  const match = selector.exec(css);
  if (!match) throw new Error(`no ${selector} block in index.css`);
  const body = css.slice(match.index + match[0].length, css.indexOf("}", match.index));
  return Object.fromEntries(
    [...body.matchAll(/--([a-z-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map((m) => [m[1], m[2]]),
  );
}

/** The theme blocks: the dark default (`:root, .dark`) and `.light`. */
const THEMES = {
  dark: block(/:root,\s*\.dark\s*\{/),
  light: block(/\n\.light\s*\{/),
};

type Rgb = [number, number, number];

function rgb(hex: string): Rgb {
  const h = hex.replace("#", "");
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

/** `top` at `alpha` over `under` (a tinted surface such as `bg-destructive/15`). */
function over(top: Rgb, alpha: number, under: Rgb): Rgb {
  return top.map((c, i) => c * alpha + under[i]! * (1 - alpha)) as Rgb;
}

function luminance(c: Rgb): number {
  const [r, g, b] = c.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const SURFACES = ["background", "card", "popover", "muted", "secondary", "accent"];

/** [text token, surface] pairs as the components use them; a surface "x/NN" is x at NN % over the card. */
const PAIRS: [string, string][] = [
  ...SURFACES.map((s) => ["foreground", s] as [string, string]),
  ...SURFACES.map((s) => ["muted-foreground", s] as [string, string]),
  ["card-foreground", "card"],
  ["popover-foreground", "popover"],
  ["secondary-foreground", "secondary"],
  ["accent-foreground", "accent"],
  ["primary-foreground", "primary"],
  ["destructive-foreground", "destructive"],
  ["success-foreground", "success"],
  ["warning-foreground", "warning"],
  // Coloured text: links, inline errors, "On", error headlines.
  ["primary", "background"],
  ["primary", "card"],
  ["primary", "popover"],
  ["primary", "primary/12"],
  ["destructive", "background"],
  ["destructive", "card"],
  ["destructive", "popover"],
  ["destructive-emphasis", "background"],
  ["destructive-emphasis", "card"],
  ["destructive-emphasis", "popover"],
  ["destructive-emphasis", "destructive/15"],
  ["success", "background"],
  ["success", "card"],
];

function surface(theme: Record<string, string>, name: string): Rgb {
  const [token, percent] = name.split("/") as [string, string | undefined];
  const color = theme[token];
  if (!color) throw new Error(`no --${token}`);
  if (!percent) return rgb(color);
  return over(rgb(color), Number(percent) / 100, rgb(theme.card!));
}

describe("theme contrast (WCAG AA)", () => {
  it("computes the WCAG ratio", () => {
    expect(contrast([255, 255, 255], [0, 0, 0])).toBeCloseTo(21, 5);
    expect(contrast(rgb("#767676"), rgb("#ffffff"))).toBeCloseTo(4.54, 2);
  });

  for (const [name, theme] of Object.entries(THEMES)) {
    it(`every text/surface pair of the ${name} theme reaches 4.5:1`, () => {
      const failing = PAIRS.map(([text, on]) => {
        const color = theme[text];
        if (!color) throw new Error(`no --${text} in the ${name} theme`);
        return {
          pair: `${text} on ${on}`,
          ratio: Number(contrast(rgb(color), surface(theme, on)).toFixed(2)),
        };
      }).filter((p) => p.ratio < 4.5);
      expect(failing).toEqual([]);
    });
  }
});
