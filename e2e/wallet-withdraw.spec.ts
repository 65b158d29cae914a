import { getAddress, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, test, toast } from "./fixtures";
import { type Catalog, catalogOf, fillIn, selectCase } from "./support/i18n";
import { payFromDevAccount } from "./support/payments";
import { continueOnDevPage } from "./support/social";

// Two sign-ins through the development page, a funding transfer and a withdrawal: more than a one-page test.
test.describe.configure({ timeout: 180_000 });

type Page = import("@playwright/test").Page;

/** The words of the profile's managed wallet and the social sign-in, from the English catalogs (their source). */
const en: Catalog = catalogOf("en", ["account", "wallet", "pay"]);
const amountLabel = fillIn(en["wallet.profile.amount"]!, { symbol: "CPXTB" });
const withdrawButton = { name: en["wallet.profile.withdraw"], exact: true };

const snap = (page: Page, file: string) =>
  page.screenshot({
    path: `${process.env.SCREENSHOTS_DIR ?? test.info().outputPath()}/${file}`,
    fullPage: true,
  });

/** The page in `theme` (reloaded), at 390 px, saved for a look. */
const shot = async (page: Page, name: string, theme: "light" | "dark") => {
  await page.evaluate((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
  await page.reload();
  await expect(page.getByTestId("managed-wallet-section")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("managed-wallet-section").getByText(en["wallet.sends.title"]!)).toBeVisible();
  await snap(page, `${name}-390-${theme}.png`);
};

test("a social account sees its managed wallet on /profile, signs in again when asked, withdraws, and the tokens arrive on chain", async ({
  page,
  consoleGuard,
}) => {
  // The recent-sign-in answer below is a 403, which Chromium logs.
  consoleGuard.allow(/status of 403 \(Forbidden\) \(http:\/\/[^)]+\/api\/wallet\/withdraw\)$/);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/auth");
  await page
    .getByRole("button", { name: fillIn(en["wallet.signIn.continueWith"]!, { provider: "Google" }) })
    .click();
  const email = `wendy-${Date.now()}@example.com`;
  await continueOnDevPage(page, "Wendy Withdraw", email, /\/auth$/);
  await expect(page.getByTestId("social-account")).toContainText(
    fillIn(en["wallet.card.name"]!, { name: "Wendy Withdraw", provider: "Google" }),
    {
      timeout: 30_000,
    },
  );
  const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem("cpxtb_social_user")!));
  const address = getAddress(stored.walletAddress);

  // Tokens arrive after the sign-in: /auth shows the chain's balance, not the sign-in answer's (issue 34 item 5).
  await payFromDevAccount(page.request, address, parseUnits("25", 18));
  await expect(page.getByTestId("social-balance")).toHaveText("25 CPXTB", { timeout: 45_000 });

  await page.goto("/profile");
  const section = page.getByTestId("managed-wallet-section");
  await expect(section.getByRole("heading", { name: en["wallet.profile.title"] })).toBeVisible({
    timeout: 30_000,
  });
  await expect(section.getByTestId("managed-wallet-balance")).toHaveText("25 CPXTB");
  await expect(section.getByTestId("managed-wallet-address")).toHaveText(address);
  await expect(section.getByTestId("managed-wallet-limit-left")).toContainText(
    new RegExp(
      fillIn(en["wallet.profile.limitLeftOf"]!, { left: "[\\d,.]+", limit: "[\\d,.]+", symbol: "CPXTB" }),
    ),
  );
  await expect(section.getByText(en["wallet.sends.none"]!)).toBeVisible();
  // The wallets linked for sign-in are another thing, and the page says so.
  await expect(page.getByRole("heading", { name: en["account.wallets.title"] })).toBeVisible();
  await shot(page, "profile-managed-wallet", "light");
  await shot(page, "profile-managed-wallet", "dark");

  // The address is checked before anything is sent: a mistyped character fails the checksum.
  const external = privateKeyToAccount(generatePrivateKey()).address;
  const flipped = external.replace(/[a-f]/, (c) => c.toUpperCase());
  await section
    .getByLabel(en["wallet.profile.to"]!)
    .fill(flipped === external ? external.toLowerCase() : flipped);
  await section.getByLabel(amountLabel).fill("7.5");
  if (flipped !== external) {
    await section.getByRole("button", withdrawButton).click();
    await expect(section.getByText(en["wallet.profile.toChecksum"]!)).toBeVisible();
  }
  await section.getByRole("button", { name: en["wallet.profile.max"] }).click();
  await expect(section.getByLabel(amountLabel)).toHaveValue("25");
  await section.getByLabel(en["wallet.profile.to"]!).fill(external);
  await section.getByLabel(amountLabel).fill("7.5");

  // The server asks for a recent sign-in (here: the answer a 16-minute-old session gets, served once).
  const keys: string[] = [];
  await page.route(
    "**/api/wallet/withdraw",
    async (route) => {
      keys.push(route.request().postDataJSON().idempotencyKey);
      await route.fulfill({
        status: 403,
        contentType: "application/json",
        body: JSON.stringify({
          error: {
            code: "FORBIDDEN",
            message: "For your safety, sign in again (within the last 15 minutes) before withdrawing.",
            details: { reason: "recent_sign_in_required" },
          },
        }),
      });
    },
    { times: 1 },
  );
  await section.getByRole("button", withdrawButton).click();
  const step = section.getByTestId("withdraw-sign-in-again");
  await expect(step).toContainText(fillIn(en["wallet.profile.signInAgainText"]!, { minutes: 15 }));
  await expect(section).not.toContainText("403");
  await snap(page, "profile-sign-in-again-390-dark.png");
  await step
    .getByRole("button", { name: fillIn(en["wallet.profile.signInAgainWith"]!, { provider: "Google" }) })
    .click();
  await continueOnDevPage(page, "Wendy Withdraw", email, /\/profile$/);

  // Back on the profile with the form's values; the same submission keeps its key.
  await expect(section.getByLabel(en["wallet.profile.to"]!)).toHaveValue(external, { timeout: 30_000 });
  await expect(section.getByLabel(amountLabel)).toHaveValue("7.5");
  const sent = page.waitForResponse((r) => r.url().endsWith("/api/wallet/withdraw"), { timeout: 60_000 });
  await section.getByRole("button", withdrawButton).click();
  const response = await sent;
  expect(response.status(), await response.text()).toBe(200);
  keys.push(response.request().postDataJSON().idempotencyKey);
  expect(new Set(keys).size).toBe(1);
  await expect(toast(page, en["wallet.profile.withdrawSent"]!)).toBeVisible();

  // In the list, with its state and transaction; the balance goes down; the tokens are at the address on chain.
  const row = section.getByTestId("wallet-send").first();
  await expect(row).toContainText(`${en["wallet.sends.withdrawal"]} 7.5 CPXTB`, { timeout: 30_000 });
  // Its final state once mined with the chain's confirmations (the list reads the receipts).
  await expect(row.getByTestId("wallet-send-state")).toHaveText(
    selectCase(en["wallet.sends.state"]!, "confirmed"),
    { timeout: 45_000 },
  );
  await expect(row.getByTestId("wallet-send-tx")).toContainText(
    new RegExp(fillIn(en["wallet.sends.tx"]!, { txHash: "0x[0-9a-f]{64}" })),
  );
  await expect(section.getByTestId("managed-wallet-balance")).toHaveText("17.5 CPXTB", { timeout: 45_000 });
  await expect
    .poll(async () => (await (await page.request.get(`/api/balance?address=${external}`)).json()).balance, {
      timeout: 45_000,
    })
    .toMatch(/^7\.50*$/);
  await shot(page, "profile-after-withdraw", "light");
  await shot(page, "profile-after-withdraw", "dark");
});
