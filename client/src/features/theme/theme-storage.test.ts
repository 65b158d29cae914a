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

  it("leaves the root alone when it already has the theme (a rewrite restyles the whole page)", async () => {
    const root = document.documentElement;
    applyResolvedTheme("dark", root);
    const writes: string[] = [];
    const observer = new MutationObserver((records) =>
      writes.push(...records.map((r) => r.attributeName ?? "")),
    );
    observer.observe(document.documentElement, { attributes: true, subtree: true });
    applyResolvedTheme("dark", root);
    await Promise.resolve();
    observer.disconnect();
    expect(writes).toEqual([]);
    expect([...root.classList]).toContain("dark");
  });
});
