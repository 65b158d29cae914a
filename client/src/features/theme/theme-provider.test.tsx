import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ThemeProvider, useTheme } from "./theme-provider";

type Listener = () => void;

function stubSystemTheme(initiallyDark: boolean) {
  const listeners = new Set<Listener>();
  const media = {
    matches: initiallyDark,
    addEventListener: (_: string, listener: Listener) => listeners.add(listener),
    removeEventListener: (_: string, listener: Listener) => listeners.delete(listener),
  };
  vi.stubGlobal(
    "matchMedia",
    vi.fn(() => media),
  );
  return (dark: boolean) => {
    media.matches = dark;
    for (const listener of listeners) listener();
  };
}

function Probe() {
  const { theme, resolvedTheme, setTheme } = useTheme();
  return (
    <div>
      <p data-testid="theme">
        {theme}/{resolvedTheme}
      </p>
      <button type="button" onClick={() => setTheme("light")}>
        light
      </button>
      <button type="button" onClick={() => setTheme("system")}>
        system
      </button>
    </div>
  );
}

const rootClass = () => document.documentElement.className.trim();

describe("ThemeProvider", () => {
  beforeEach(() => {
    stubSystemTheme(false);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("is dark by default and marks the root", () => {
    render(
      <ThemeProvider>
        <Probe />
      </ThemeProvider>,
    );
    expect(screen.getByTestId("theme").textContent).toBe("dark/dark");
    expect(rootClass()).toBe("dark");
  });

  it("saves a change and applies it", () => {
    render(
      <ThemeProvider>
        <Probe />
      </ThemeProvider>,
    );
    act(() => screen.getByText("light").click());
    expect(localStorage.getItem("cpxtb-pay-theme")).toBe("light");
    expect(rootClass()).toBe("light");
  });

  it("follows the OS, live, in system mode", () => {
    const setSystemDark = stubSystemTheme(true);
    localStorage.setItem("cpxtb-pay-theme", "system");
    render(
      <ThemeProvider>
        <Probe />
      </ThemeProvider>,
    );
    expect(screen.getByTestId("theme").textContent).toBe("system/dark");
    act(() => setSystemDark(false));
    expect(screen.getByTestId("theme").textContent).toBe("system/light");
    expect(rootClass()).toBe("light");
  });

  it("throws when used outside its provider", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => render(<Probe />)).toThrow("useTheme must be used within a ThemeProvider");
  });
});
