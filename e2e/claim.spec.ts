import AxeBuilder from "@axe-core/playwright";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, test, toast } from "./fixtures";
import { installWallet } from "./support/payments";

/**
 * "Claim Test CPXTB Tokens" with the injected wallet: a freshly generated key (a claim needs no funds from the
 * claimant, and no other spec uses it), signed in with Ethereum, so the wallet is the account's.
 * The suite's only claim: claims are limited per IP too, and every e2e request comes from 127.0.0.1.
 */
// A reader far from UTC: the next claim time is said in their own time.
test.use({ timezoneId: "Asia/Tokyo", locale: "en-US" });

test("claiming test CPXTB: sent with its transaction; Claim then waits, with the next time said once in local time", async ({
  page,
  consoleGuard,
}) => {
  test.setTimeout(120_000);
  // The refused second claim is an answer (409), which Chromium logs.
  consoleGuard.allow(/status of 409/);
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  await installWallet(page, key);
  await page.goto("/auth");
  await page.getByRole("button", { name: "Sign in with Ethereum" }).click();
  await expect(toast(page, "Login successful")).toBeVisible();
  await expect(page).toHaveURL(/\/merchant$/);

  await page.goto("/buy-cpxtb");
  const card = page.getByTestId("claim-card");
  await expect(card.getByText("Claim Test CPXTB Tokens")).toBeVisible();
  await expect(card.getByText(`${address.slice(0, 6)}…${address.slice(-4)}`)).toBeVisible();
  await card.getByRole("button", { name: "Claim 10 CPXTB" }).click();

  await expect(card.getByTestId("claim-last")).toContainText("10 CPXTB sent", { timeout: 30_000 });
  // The embedded chain has no explorer: the transaction hash itself, no "View on BaseScan".
  await expect(card.getByTestId("claim-tx")).toHaveText(/^Transaction 0x[0-9a-f]{64}$/);
  await expect(card.getByRole("link", { name: "View on BaseScan" })).toHaveCount(0);
  await expect(card.getByTestId("claim-next")).toContainText("You can claim again at");
  await expect(card.getByTestId("claim-button")).toBeDisabled();

  const stored = await page.evaluate(
    (a) => ({
      device: localStorage.getItem(`cpxtb_device_id_${a.toLowerCase()}`),
      last: localStorage.getItem(`cpxtb_last_claim_${a.toLowerCase()}`),
    }),
    address,
  );
  expect(stored.device).toMatch(/^dev_[0-9a-f]{32}$/);
  expect(stored.last).toMatch(/^\d{4}-\d\d-\d\dT/);
  // "Sent" is said at broadcast; the balance follows once the transfer is mined (later on a busy machine).
  await expect
    .poll(
      async () => Number((await (await page.request.get(`/api/balance?address=${address}`)).json()).balance),
      { timeout: 30_000 },
    )
    .toBe(10);

  // One statement of the next time, in Tokyo time (a day after the claim), and no UTC time anywhere.
  const next = new Date(new Date(stored.last!).getTime() + 24 * 3_600_000).toLocaleString("en-US", {
    timeZone: "Asia/Tokyo",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
  await expect(card.getByTestId("claim-next")).toHaveText(`You can claim again at ${next}.`);
  await expect(card.getByText(/claim again/)).toHaveCount(1);
  await expect(card.getByText(/UTC/)).toHaveCount(0);

  // After a reload the claim is the server's: still sent, still the next time.
  await page.reload();
  await expect(card.getByTestId("claim-last")).toContainText("10 CPXTB sent");
  await expect(card.getByTestId("claim-next")).toBeVisible();
  await expect(card.getByTestId("claim-button")).toBeDisabled();

  // Phone width, both themes: nothing scrolls sideways; the screenshots are for looking at.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => localStorage.setItem("cpxtb-pay-theme", t), theme);
    await page.reload();
    await expect(card.getByTestId("claim-next")).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: test.info().outputPath(`claim-390-${theme}.png`), fullPage: true });
    const axe = await new AxeBuilder({ page }).include("[data-testid=claim-card]").analyze();
    const serious = axe.violations.filter((v) => ["serious", "critical"].includes(v.impact ?? ""));
    expect(
      serious.map((v) => `${v.id}: ${v.help}`),
      `axe on the claim card (${theme})`,
    ).toEqual([]);
  }
});
