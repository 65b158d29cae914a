import type { PublicPayment } from "@common/payments";
import type * as React from "react";

type Appearance = Pick<PublicPayment["merchant"], "brandColor" | "pageTheme">;

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white, whichever reads better on `hex` (at least 4.5:1 for any colour: WCAG AA). */
export function readableOn(hex: string): "#000000" | "#ffffff" {
  return contrastRatio(hex, "#000000") >= contrastRatio(hex, "#ffffff") ? "#000000" : "#ffffff";
}

const HEX = /^#[0-9a-f]{6}$/i;

/**
 * The merchant's look for its pay page: the brand colour replaces the accent (buttons, focus ring) with a text
 * colour chosen for contrast, and a fixed theme applies the light or dark palette to the page's own subtree.
 */
export function appearanceProps(appearance: Appearance | undefined): {
  className: string | undefined;
  style: React.CSSProperties | undefined;
} {
  const theme = appearance?.pageTheme;
  const brand = appearance?.brandColor;
  const style =
    brand && HEX.test(brand)
      ? ({
          "--primary": brand,
          "--primary-foreground": readableOn(brand),
          "--ring": brand,
        } as React.CSSProperties)
      : undefined;
  return { className: theme === "light" || theme === "dark" ? theme : undefined, style };
}
