import { encode } from "uqr";

/** A QR code's dark modules as one SVG path over a `size` x `size` grid (4-module quiet zone included). */
export type QrSvg = { path: string; size: number };

/** The QR modules of `text` (true = dark), with a 4-module quiet zone: what every scanner reads. */
export function qrModules(text: string): { data: boolean[][]; size: number } {
  const { data, size } = encode(text, { ecc: "M", border: 4 });
  return { data, size };
}

/**
 * The modules of a QR code as one SVG path (dark on white). The server renders the pay page's code with it and the
 * browser draws the same one, so the server's markup hydrates unchanged.
 */
export function qrSvgPath(text: string): QrSvg {
  const { data, size } = qrModules(text);
  // One rectangle per run of dark modules in a row: a third of the bytes of one square per module.
  let path = "";
  data.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      let run = 1;
      while (row[x + run]) run++;
      path += `M${x} ${y}h${run}v1h-${run}z`;
      x += run - 1;
    }
  });
  return { path, size };
}
