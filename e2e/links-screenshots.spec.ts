import { expect, test } from "./fixtures";
import { createMerchant } from "./support/payments";

/**
 * Visual check of the payment link screens (UI.md): /links with links and stats, a link's page (fixed price and
 * payer chooses), at 390 px and 1280 px, light and dark. Not an assertion suite; run with
 * `SCREENSHOTS_DIR=/tmp/shots npx playwright test e2e/links-screenshots.spec.ts` and look at the files.
 */
const dir = process.env.SCREENSHOTS_DIR;
test.skip(!dir, "set SCREENSHOTS_DIR to take screenshots");
test.describe.configure({ mode: "serial", timeout: 180_000 });

const PIXEL =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkOPO/HgAFhwJ/wlseKgAAAABJRU5ErkJggg==";

for (const width of [390, 1280]) {
  for (const theme of ["dark", "light"] as const) {
    test(`link screens at ${width} px, ${theme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      const shot = (name: string) =>
        page.screenshot({ path: `${dir}/${name}-${width}-${theme}.png`, fullPage: true });
      await createMerchant(page.request, { name: "Corner Coffee" });
      const make = async (data: Record<string, unknown>) => {
        const response = await page.request.post("/api/merchant/links", { data });
        expect(response.status()).toBe(201);
        return response.json();
      };
      const loaf = await make({
        title: "Sourdough loaf",
        description: "Baked this morning with stone-ground flour.",
        imageUrl: PIXEL,
        pricing: "fixed",
        currency: "USD",
        amount: "4.20",
        quantityLimit: 20,
      });
      const tips = await make({
        title: "Tip the barista",
        pricing: "open",
        currency: "USD",
        minAmount: "1.00",
      });
      const off = await make({ title: "Summer special", pricing: "fixed", currency: "CPXTB", amount: "150" });
      await page.request.patch(`/api/merchant/links/${off.id}`, { data: { active: false } });
      await page.request.post(`/api/links/public/${loaf.slug}/pay`, { data: {} });

      await page.goto("/links");
      await expect(page.getByTestId("link-card")).toHaveCount(3);
      await shot("links");
      await page.getByRole("button", { name: "New link" }).click();
      await expect(page.getByTestId("link-form")).toBeVisible();
      await shot("links-new");
      await page.goto(`/l/${loaf.slug}`);
      await expect(page.getByTestId("link-pay")).toBeVisible();
      await shot("link-fixed");
      await page.goto(`/l/${tips.slug}`);
      await expect(page.getByLabel("Amount (USD)")).toBeVisible();
      await shot("link-open");
      await page.goto(`/l/${off.slug}`);
      await expect(page.getByText("This link is switched off")).toBeVisible();
      await shot("link-off");
    });
  }
}
