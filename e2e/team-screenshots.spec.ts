import { expect, test } from "./fixtures";
import { waitForMail } from "./support/mailbox";
import { createMerchant } from "./support/payments";

/**
 * Visual check of the team screens (UI.md): /team with a member and a pending invitation, a confirmation, and the
 * invitation page signed out, at 390 px and 1280 px, light and dark. Not an assertion suite; run with
 * `SCREENSHOTS_DIR=/tmp/shots npx playwright test e2e/team-screenshots.spec.ts` and look at the files.
 */
const dir = process.env.SCREENSHOTS_DIR;
test.skip(!dir, "set SCREENSHOTS_DIR to take screenshots");
test.describe.configure({ mode: "serial", timeout: 180_000 });

for (const width of [390, 1280]) {
  for (const theme of ["dark", "light"] as const) {
    test(`team screens at ${width} px, ${theme}`, async ({ page, browser }) => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      const shot = (name: string, target = page) =>
        target.screenshot({ path: `${dir}/${name}-${width}-${theme}.png`, fullPage: true });
      await createMerchant(page.request, { name: "Corner Coffee" });
      await page.goto("/team");
      const invite = page.getByRole("form", { name: "Invite a member" });
      await expect(invite).toBeVisible({ timeout: 60_000 });
      const email = `shot${Date.now()}${width}${theme}@example.com`;
      await invite.getByLabel("Email address").fill(email);
      await invite.getByRole("button", { name: "Send invitation" }).click();
      await expect(page.getByTestId("team-invitation").filter({ hasText: email })).toBeVisible();
      const path = await waitForMail(email, /(\/invitations\/[A-Za-z0-9_-]{43})/);

      const other = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } });
      const guest = await other.newPage();
      await guest.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      await guest.goto(path);
      await expect(guest.getByRole("heading", { name: "Join Corner Coffee" })).toBeVisible({
        timeout: 60_000,
      });
      await shot("invitation", guest);
      await other.close();

      await page.reload();
      await expect(page.getByTestId("team-member")).toHaveCount(1);
      await shot("team");
    });
  }
}
