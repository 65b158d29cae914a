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

export function applyResolvedTheme(resolved: ResolvedTheme, root: HTMLElement = document.documentElement) {
  root.classList.remove("light", "dark");
  root.classList.add(resolved);
  const meta = document.querySelector('meta[name="theme-color"]');
  // Matches --background of each theme so the browser chrome blends with the page.
  meta?.setAttribute("content", resolved === "dark" ? "#0d111c" : "#fbfbfe");
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
