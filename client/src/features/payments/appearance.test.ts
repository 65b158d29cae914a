import { describe, expect, it } from "vitest";
import { appearanceProps, contrastRatio, readableOn } from "./appearance";

describe("pay page appearance", () => {
  it("picks a text colour with at least AA contrast on any brand colour", () => {
    for (const brand of ["#ffffff", "#000000", "#777777", "#1a7f5a", "#f5b942", "#ff0000", "#0000ff"]) {
      expect(contrastRatio(brand, readableOn(brand)), brand).toBeGreaterThanOrEqual(4.5);
    }
    expect(readableOn("#f5b942")).toBe("#000000");
    expect(readableOn("#1e3a8a")).toBe("#ffffff");
  });

  it("maps the brand colour to the accent variables and a fixed theme to its class", () => {
    expect(appearanceProps({ brandColor: "#1a7f5a", pageTheme: "light" })).toEqual({
      className: "light",
      style: { "--primary": "#1a7f5a", "--primary-foreground": "#ffffff", "--ring": "#1a7f5a" },
    });
    expect(appearanceProps({ brandColor: null, pageTheme: "auto" })).toEqual({
      className: undefined,
      style: undefined,
    });
    expect(appearanceProps({ brandColor: "red;x:y", pageTheme: "dark" }).style).toBeUndefined();
  });
});
