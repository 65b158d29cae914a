import { Moon, Sun } from "lucide-react";
import { buttonVariants } from "@/components/ui/button-variants";
import { useHydrated } from "@/hooks/use-hydrated";
import { useTheme } from "./theme-provider";
import { DEFAULT_THEME } from "./theme-storage";

/** What the toggle says it does, by the theme it switches to: English unless a translated page passes its words. */
export type ThemeToggleLabels = { dark: string; light: string };

const ENGLISH: ThemeToggleLabels = { dark: "Switch to dark theme", light: "Switch to light theme" };

export function ThemeToggle({ labels = ENGLISH }: { labels?: ThemeToggleLabels }) {
  const { resolvedTheme, setTheme } = useTheme();
  // The server cannot know the stored theme: its label is the default theme's until hydrated (decision 017).
  const shown = useHydrated() ? resolvedTheme : DEFAULT_THEME;
  const next = shown === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className={buttonVariants({ variant: "floating", size: "icon" })}
      onClick={() => setTheme(next)}
      aria-label={labels[next]}
      title={labels[next]}
      data-testid="theme-toggle"
    >
      {/* By the theme class rather than by state: the server-rendered HTML (decision 009) shows the right one too. */}
      <Sun aria-hidden="true" className="hidden dark:block" />
      <Moon aria-hidden="true" className="dark:hidden" />
    </button>
  );
}
