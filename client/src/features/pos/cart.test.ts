import { describe, expect, it } from "vitest";
import {
  type Cart,
  cartNote,
  cartTotal,
  changeQuantity,
  decimalOfThousandths,
  formatThousandths,
  MAX_QUANTITY,
  type PosItem,
  thousandthsOf,
  tipOfThousandths,
} from "./cart";

const coffee: PosItem = { id: "lnk_a", title: "Coffee", currency: "USD", price: "4.20", imageUrl: null };
const bagel: PosItem = { id: "lnk_b", title: "Bagel", currency: "USD", price: "2.5", imageUrl: null };
const beans: PosItem = { id: "lnk_c", title: "Beans", currency: "CPXTB", price: "100.125", imageUrl: null };

describe("the counter's cart", () => {
  it("adds and removes units per item, never below none or above the most", () => {
    let cart: Cart = {};
    cart = changeQuantity(cart, coffee.id, 1);
    cart = changeQuantity(cart, coffee.id, 1);
    cart = changeQuantity(cart, bagel.id, 1);
    expect(cart).toEqual({ lnk_a: 2, lnk_b: 1 });
    cart = changeQuantity(cart, bagel.id, -1);
    expect(cart).toEqual({ lnk_a: 2 });
    expect(changeQuantity({ lnk_a: MAX_QUANTITY }, coffee.id, 1)).toEqual({ lnk_a: MAX_QUANTITY });
    // Lines keep the order first tapped, whatever the grid's order.
    const tapped = changeQuantity(changeQuantity(changeQuantity({}, bagel.id, 1), coffee.id, 1), bagel.id, 1);
    expect(cartNote([coffee, bagel], tapped)).toBe("2 × Bagel, Coffee");
  });

  it("sums exactly in thousandths, and writes the total as the currency does", () => {
    const items = [coffee, bagel, beans];
    expect(cartTotal(items, { lnk_a: 2, lnk_b: 1 })).toBe(10_900n);
    expect(formatThousandths(10_900n)).toBe("10.90");
    expect(decimalOfThousandths(10_900n)).toBe("10.90");
    expect(cartTotal(items, { lnk_c: 3 })).toBe(300_375n);
    expect(formatThousandths(300_375n)).toBe("300.375");
    expect(formatThousandths(1_234_567_000n)).toBe("1,234,567.00");
    expect(decimalOfThousandths(1_234_567_000n)).toBe("1234567.00");
    expect(thousandthsOf("7")).toBe(7000n);
    // An item no longer in the list (switched off meanwhile) is not charged.
    expect(cartTotal([coffee], { lnk_a: 1, lnk_gone: 4 })).toBe(4200n);
  });

  it("names the items in the sale's note", () => {
    expect(cartNote([coffee, bagel], { lnk_a: 2, lnk_b: 1 })).toBe("2 × Coffee, Bagel");
    expect(cartNote([coffee, bagel], {})).toBe("");
  });

  it("rounds a tip half up to the hundredth, as the keypad does", () => {
    expect(tipOfThousandths(1250n, 10)).toBe(130n);
    expect(tipOfThousandths(10_900n, 15)).toBe(1640n);
    expect(tipOfThousandths(10_900n, 0)).toBe(0n);
  });
});
