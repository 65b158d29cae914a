import { describe, expect, it } from "vitest";
import {
  applyResolvedTheme,
  readStoredTheme,
  resolveTheme,
  THEME_STORAGE_KEY,
  writeStoredTheme,
} from "./theme-storage";

describe("theme storage", () => {
  it("defaults to dark when nothing valid is stored", () => {
    expect(readStoredTheme()).toBe("dark");
    localStorage.setItem(THEME_STORAGE_KEY, "purple");
    expect(readStoredTheme()).toBe("dark");
  });

  it("reads back what was saved under the product key", () => {
    writeStoredTheme("light");
    expect(localStorage.getItem("cpxtb-pay-theme")).toBe("light");
    expect(readStoredTheme()).toBe("light");
    writeStoredTheme("system");
    expect(readStoredTheme()).toBe("system");
  });

  it("survives a storage that throws", () => {
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
    };
    expect(readStoredTheme(broken)).toBe("dark");
  });

  it("resolves system from the OS preference", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
  });

  it("puts exactly one of light/dark on the root", () => {
    const root = document.documentElement;
    applyResolvedTheme("light", root);
    expect(root.classList.contains("light")).toBe(true);
    applyResolvedTheme("dark", root);
    expect(root.classList.contains("dark")).toBe(true);
    expect(root.classList.contains("light")).toBe(false);
  });
});
