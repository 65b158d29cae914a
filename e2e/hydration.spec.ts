import type { Page, Route } from "@playwright/test";
import { expect, test } from "./fixtures";

/** True once the app owns the server's markup (main.tsx removes the marker in hydration's commit). */
const hydrated = (page: Page) =>
  page.waitForFunction(() => !document.getElementById("root")?.hasAttribute("data-server-rendered"));

// Decision 017: the server-rendered pages are hydrated, not replaced. The fixture's console guard fails the test on
// any console error or page error, which is where React reports a hydration mismatch.
for (const path of ["/", "/blog", "/blog/security-checklist-for-merchants"]) {
  test(`${path} is hydrated in place (light theme, signed in)`, async ({ page }) => {
    // Not the default (dark) theme and a session: what the server cannot know must not break hydration.
    await page.addInitScript(() => {
      localStorage.setItem("cpxtb-pay-theme", "light");
      document.addEventListener("readystatechange", () => {
        if (document.readyState !== "interactive") return;
        const w = window as unknown as { serverMain?: Element | null; serverHeading?: Element | null };
        w.serverMain = document.querySelector("main");
        w.serverHeading = document.querySelector("main h1");
      });
    });
    const username = `hyd_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const register = await page.request.post("/api/register", {
      data: { username, password: "correct horse battery staple" },
    });
    expect(register.ok()).toBe(true);

    await page.goto(path);
    await hydrated(page);
    // The nodes the server sent are the ones on screen: nothing was painted twice.
    const kept = await page.evaluate(() => {
      const w = window as unknown as { serverMain?: Element | null; serverHeading?: Element | null };
      return {
        main: w.serverMain != null && w.serverMain === document.querySelector("main"),
        heading: w.serverHeading != null && w.serverHeading === document.querySelector("main h1"),
      };
    });
    expect(kept).toEqual({ main: true, heading: true });
    await expect(page.getByTestId("theme-toggle")).toHaveAttribute("aria-label", "Switch to dark theme");
    await expect(page.locator("html")).toHaveClass(/\blight\b/);
  });
}

test("a tap on a server-rendered button before the app has loaded is honoured once", async ({ page }) => {
  // The page's scripts are held back until the button has been tapped, as on a slow phone network.
  const held: Route[] = [];
  let release = false;
  await page.route(/\/assets\/.*\.js$/, (route) => (release ? route.continue() : void held.push(route)));
  await page.goto("/", { waitUntil: "commit" });

  const toggle = page.getByTestId("theme-toggle");
  await expect(toggle).toHaveAttribute("aria-label", "Switch to light theme");
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await toggle.click();
  expect(held.length).toBeGreaterThan(0);
  release = true;
  for (const route of held) await route.continue();

  await hydrated(page);
  await expect(page.locator("html")).toHaveClass(/\blight\b/);
  await expect(toggle).toHaveAttribute("aria-label", "Switch to dark theme");
  expect(await page.evaluate(() => localStorage.getItem("cpxtb-pay-theme"))).toBe("light");
});
