import type { Page } from "@playwright/test";
import { generatePrivateKey } from "viem/accounts";
import { expect as baseExpect, test } from "./fixtures";
import { PASSWORD } from "./support/payments";
import { installWallet } from "./support/wallet";

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`header wallet at ${viewport.width} px: proving the business's wallet shows it connected; its menu has address, network, balance and actions`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const { account } = await installWallet(page, page.request, { privateKey: generatePrivateKey() });
    const username = `prove_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    expect((await page.request.post("/api/register", { data: { username, password: PASSWORD } })).ok()).toBe(
      true,
    );
    await page.goto("/merchant");
    await expect(page.getByRole("heading", { name: "Register your business" })).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.getByTestId("wallet-connect")).toHaveAttribute("data-status", "disconnected");
    await page.getByLabel("Business name").fill("Proven Wallet Shop");
    await page.getByLabel("Contact email").fill("owner@example.com");
    await page.getByRole("button", { name: "Sign with wallet and register" }).click();
    await expect(page.getByRole("heading", { name: "New payment" })).toBeVisible();

    // The header shows the wallet the business just proved as connected, without another click.
    const control = page.getByTestId("wallet-control");
    await expect(control).toHaveAttribute("data-status", "connected");
    const short = `${account.address.slice(0, 6)}…${account.address.slice(-4)}`;
    await control.getByRole("button", { name: `Wallet ${short}` }).click();
    const menu = page.getByRole("menu", { name: "Wallet" });
    await expect(menu).toBeVisible();
    await expect(menu.getByTestId("wallet-address")).toHaveText(account.address);
    await expect(menu.getByTestId("wallet-network")).toHaveText("Network: Local development chain");
    await expect(menu.getByTestId("wallet-balance")).toHaveText(/^Balance: [\d,]+(\.\d+)? CPXTB$/);
    for (const item of ["Copy address", "Add CPXTB to wallet", "Disconnect"]) {
      await expect(menu.getByRole("menuitem", { name: item })).toBeVisible();
    }
    // The trigger fits the top bar: nothing of the header runs off a phone's screen.
    const trigger = (await control.getByRole("button", { name: `Wallet ${short}` }).boundingBox())!;
    expect(trigger.x + trigger.width).toBeLessThanOrEqual(viewport.width);
    await shot(page, `wallet-menu-${viewport.width}`);
    await page.evaluate(() => document.documentElement.classList.replace("dark", "light"));
    await shot(page, `wallet-menu-${viewport.width}-light`);
    await page.evaluate(() => document.documentElement.classList.replace("light", "dark"));
    // Keyboard: arrows move through the items, Escape closes and gives the focus back.
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitem", { name: "Copy address" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(control.getByRole("button", { name: `Wallet ${short}` })).toBeFocused();
  });
}
