import { describe, expect, it } from "vitest";
import { qrModules, qrSvgPath } from "./qr";

/** The grid a path paints: each `M x y h n v1 h-n z` rectangle, one row high, n modules wide. */
function paint(path: string, size: number): boolean[][] {
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [, x, y, n] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let i = 0; i < Number(n); i++) {
      const row = grid[Number(y)]!;
      expect(row[Number(x) + i], "a module painted twice").toBe(false);
      row[Number(x) + i] = true;
    }
  }
  return grid;
}

describe("qrSvgPath", () => {
  it("paints exactly the dark modules of the code, one rectangle per run", () => {
    const text =
      "ethereum:0x5FbDB2315678afecb367f032d93F642f64180aa3@31337/transfer?address=0xFe7340C0048aC49f946C9527158a56039D46a357&uint256=420000771000000000000";
    const { data, size } = qrModules(text);
    const { path, size: pathSize } = qrSvgPath(text);
    expect(pathSize).toBe(size);
    expect(path).toMatch(/^(M\d+ \d+h\d+v1h-\d+z)+$/);
    expect(paint(path, size)).toEqual(data);
  });
});
