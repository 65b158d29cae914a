/** Keep in sync with the inline script in client/index.html, which applies the theme before first paint. */
export const THEME_STORAGE_KEY = "cpxtb-pay-theme";
export const DEFAULT_THEME: Theme = "dark";

export type Theme = "light" | "dark" | "system";
export type ResolvedTheme = "light" | "dark";

export function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark" || value === "system";
}

export function readStoredTheme(storage: Pick<Storage, "getItem"> | undefined = safeLocalStorage()): Theme {
  try {
    const value = storage?.getItem(THEME_STORAGE_KEY);
    return isTheme(value) ? value : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

export function writeStoredTheme(
  theme: Theme,
  storage: Pick<Storage, "setItem"> | undefined = safeLocalStorage(),
) {
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private mode or storage full: the theme still applies for this visit.
  }
}

export function resolveTheme(theme: Theme, systemPrefersDark: boolean): ResolvedTheme {
  if (theme === "system") return systemPrefersDark ? "dark" : "light";
  return theme;
}

/**
 * Puts the theme's class on `<html>`, touching it only when it changes: index.html's script already set it before
 * the first paint, and taking the class off and on again restyled every element (`.dark *` reaches them all; some
 * 50 ms at a phone's CPU speed when the app started; issue 39).
 */
export function applyResolvedTheme(resolved: ResolvedTheme, root: HTMLElement = document.documentElement) {
  const other: ResolvedTheme = resolved === "dark" ? "light" : "dark";
  if (root.classList.contains(other)) root.classList.remove(other);
  if (!root.classList.contains(resolved)) root.classList.add(resolved);
  const meta = document.querySelector('meta[name="theme-color"]');
  // Matches --background of each theme so the browser chrome blends with the page.
  const color = resolved === "dark" ? "#0d111c" : "#fbfbfe";
  if (meta && meta.getAttribute("content") !== color) meta.setAttribute("content", color);
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
