import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";

/**
 * The API reference (/api/docs, rendered by the server without script) at a phone's and a desktop's width, in the
 * light and the dark scheme: nothing wider than the screen (tables and code scroll inside their own box), an
 * example under every response, the Webhooks section, a way back to the app, and axe clean.
 */
test.setTimeout(120_000);

for (const scheme of ["light", "dark"] as const) {
  for (const width of [390, 1280]) {
    test(`/api/docs fits ${width} px in the ${scheme} scheme`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 844 });
      await page.goto("/api/docs");
      await expect(page.getByRole("heading", { level: 1, name: "CPXTB Pay API" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 2, name: "Webhooks" })).toBeVisible();
      await expect(page.getByRole("link", { name: "← CPXTB Pay" })).toBeVisible();

      // The page never scrolls sideways; each table and code block stays inside the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // Every fold opened: a box inside another table's box scrolls with that one, so the outermost boxes count.
      const outside = await page.evaluate((w) => {
        for (const details of document.querySelectorAll("details")) details.open = true;
        return [...document.querySelectorAll("pre, .table")]
          .filter((el) => !el.parentElement?.closest(".table"))
          .filter((el) => el.getBoundingClientRect().right > w + 0.5)
          .map((el) => el.textContent?.slice(0, 40));
      }, width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(outside).toEqual([]);
      // Something does scroll inside its box at 390 px: the code is not squeezed or cut.
      if (width === 390) {
        const scrolling = await page.evaluate(
          () => [...document.querySelectorAll("pre")].filter((el) => el.scrollWidth > el.clientWidth).length,
        );
        expect(scrolling).toBeGreaterThan(0);
      }

      // Every response has its example; the webhooks' verification examples are there.
      const create = page.locator("section#postPayments");
      await expect(create.locator("ul.responses > li")).toHaveCount(10);
      await expect(create.locator("ul.responses > li pre")).toHaveCount(10);
      await expect(create.getByText('"amountDue": "1000.000449"')).toBeVisible();
      await expect(page.locator("#verify-node")).toContainText("timingSafeEqual");
      await expect(page.locator("#verify-python")).toContainText("hmac.compare_digest");

      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map(
          (v) =>
            `${v.id}: ${v.nodes
              .map((n) => n.target.join(" "))
              .slice(0, 3)
              .join(" | ")}`,
        );
      expect(serious).toEqual([]);

      const shots = test.info().outputPath();
      await page.reload();
      await expect(page.getByRole("heading", { level: 2, name: "Webhooks" })).toBeVisible();
      await page.screenshot({ path: `${shots}/api-docs-${width}-${scheme}-top.png` });
      await page.locator("#webhooks").scrollIntoViewIfNeeded();
      await page.locator("#verify-node").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/api-docs-${width}-${scheme}-webhooks.png` });
      if (process.env.SCREENSHOTS_DIR)
        await page.screenshot({
          path: `${process.env.SCREENSHOTS_DIR}/api-docs-${width}-${scheme}.png`,
          fullPage: true,
        });
    });
  }
}

test("/api/docs leads back to the app", async ({ page }) => {
  await page.goto("/api/docs");
  await page.getByRole("link", { name: "← CPXTB Pay" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator("main h1").first()).toBeVisible();
  await page.goto("/api/docs#webhooks");
  await page.getByRole("link", { name: "Webhooks", exact: true }).first().click();
  await expect(page).not.toHaveURL(/\/api\/docs/);
  await expect(page.locator("main h1").first()).toBeVisible();
});
