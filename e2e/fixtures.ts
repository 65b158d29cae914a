import { readFileSync } from "node:fs";
import { test as base, expect, type Page } from "@playwright/test";
import { LOCALES } from "../common/src/locales";

/** Browser noise that is expected and harmless: signed-out GET /api/user answers 401, which Chromium logs. */
const ALWAYS_IGNORED = [/Failed to load resource: the server responded with a status of 401/];

interface ConsoleGuard {
  /** Lets the current test produce console errors matching `pattern` (e.g. the error screen test). */
  allow: (pattern: RegExp) => void;
  messages: string[];
}

/**
 * `page` fails the test on any unexpected console error or uncaught page error (STYLE.md 11), and enables the
 * app's test hooks (see client/src/app/test-hooks.tsx) through the localStorage flag before any page script runs.
 */
export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this destructuring
  consoleGuard: async ({}, use) => {
    const allowed: RegExp[] = [];
    const guard: ConsoleGuard = { allow: (pattern) => allowed.push(pattern), messages: [] };
    await use(guard);
    const unexpected = guard.messages.filter(
      (text) => ![...ALWAYS_IGNORED, ...allowed].some((pattern) => pattern.test(text)),
    );
    expect(unexpected, "unexpected console errors").toEqual([]);
  },
  page: async ({ page, consoleGuard }, use) => {
    await page.addInitScript(() => window.localStorage.setItem("cpxtb-pay-e2e", "1"));
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      // A 404 that is an answer, not a fault: no business registered yet, no managed wallet (a password account),
      // an unknown payment reference or post.
      const expected404 =
        /status of 404/.test(message.text()) &&
        (/\/api\/(merchant|wallet|payments\/public\/[^/]+|blog\/[^/]+)$/.test(message.location().url) ||
          // The pay page of an unknown reference is itself answered 404 (with its explanation; decision 017).
          /\/(pay\/[^/?]+|easy-payment\?ref=[^&]*)$/.test(message.location().url));
      // The resource's address goes with the message: "Failed to load resource" alone does not say which one.
      if (!expected404) consoleGuard.messages.push(`${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => consoleGuard.messages.push(`pageerror: ${error.message}`));
    await use(page);
  },
});

export { expect };

/**
 * The toasts' region by its name in any language ("Notifications (F8)"; the shell names it in the page's language,
 * a checkout's toast in its payer's).
 */
const TOAST_REGION = new RegExp(
  LOCALES.map((locale) =>
    (
      JSON.parse(readFileSync(`client/src/locales/${locale}/site.json`, "utf8"))[
        "site.toast.region"
      ] as string
    )
      .replace(/\s*[(（]\{hotkey\}[)）]/, "")
      .replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
  ).join("|"),
);

/**
 * A toast by its text: the item in the "Notifications (F8)" region. Not `getByRole("status")`: that finds Radix's
 * screen-reader announcement copy, which is removed after one second, while the toast itself stays for five.
 */
export function toast(page: Page, text: string) {
  return page.getByRole("region", { name: TOAST_REGION }).getByRole("listitem").filter({ hasText: text });
}
