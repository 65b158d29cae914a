import { describe, expect, it } from "vitest";
import { groupedHash } from "./receipt-pdf";

describe("a transaction hash on the receipt", () => {
  it("is two lines of eight groups of four digits, never a letter on a line of its own", () => {
    const hash = `0x${"0123456789abcdef".repeat(4)}`;
    const lines = groupedHash(hash).split("\n");
    expect(lines).toEqual([
      "0x0123 4567 89ab cdef 0123 4567 89ab cdef",
      "0123 4567 89ab cdef 0123 4567 89ab cdef",
    ]);
    expect(lines.join("").replaceAll(" ", "")).toBe(hash);
  });
});
