import type { Page } from "@playwright/test";
import { expect as baseExpect, test } from "./fixtures";

// Pages, sign-ins and the live channel on a loaded machine: more patience than the default 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });

import { expectLive, openDashboard, payFromSecondDevAccount } from "./support/dashboard";
import { createMerchant, createPayment } from "./support/payments";

// One payer account (shared with the other dashboard specs, which retry on a nonce clash): one test at a time.
test.describe.configure({ mode: "serial", timeout: 120_000 });

test("Create payment explains the amount, moves focus to the new payment, and the detail sheet gives it back to the row", async ({
  page,
}) => {
  await createMerchant(page.request);
  await openDashboard(page);
  await expect(page.getByText("the last digits identify this payment")).toBeVisible();
  await page.getByLabel("Amount").fill("2.5");
  await page.getByLabel("Currency").selectOption("CPXTB");
  await page.getByLabel("Description (optional)").fill("Focus and names");
  await page.getByRole("button", { name: "Create payment" }).click();
  await expect(page.getByRole("region", { name: /^New payment of 2\.5\d* CPXTB$/ })).toBeFocused();

  // The row's name is its visible text (axe label-content-name-mismatch), no hidden label of its own.
  const row = page.getByTestId("recent-payments").getByRole("button", { name: /Focus and names/ });
  await expect(row).not.toHaveAttribute("aria-label");
  await expect(row).toHaveAccessibleName(/^2\.5\d* CPXTB\s*Focus and names · .+Awaiting payment$/);
  await row.click();
  const detail = page.getByRole("dialog", { name: "Payment details" });
  await expect(detail).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(detail).toBeHidden();
  await expect(row).toBeFocused();

  // Opened from the new payment's "Details, poster": closing lands on the payment's row too.
  await page.getByRole("button", { name: "Details, poster" }).click();
  await expect(detail).toBeVisible();
  await detail.getByRole("button", { name: "Close payment details" }).click();
  await expect(row).toBeFocused();
});

/**
 * A person's browser keeps audio suspended until the page has had a click or a key (Chrome's autoplay policy).
 * Under Playwright every assertion counts as a user activation (its scripts run with a user gesture), so the
 * policy is applied here on the page's AudioContext: suspended at creation and resumable only after a real
 * (trusted) pointer or key event, which this script sees before the app's own listeners.
 */
async function blockAudioUntilUserActivation(page: Page) {
  await page.addInitScript(() => {
    let activated = false;
    const activate = (event: Event) => {
      if (event.isTrusted) activated = true;
    };
    window.addEventListener("pointerdown", activate, true);
    window.addEventListener("keydown", activate, true);
    const Native = window.AudioContext;
    window.AudioContext = class extends Native {
      constructor(options?: AudioContextOptions) {
        super(options);
        if (!activated) void this.suspend();
      }
      override resume() {
        return activated ? super.resume() : Promise.resolve();
      }
    };
  });
}

test("the sound switch offers Enable sound while blocked, and remembers the choice", async ({ page }) => {
  await blockAudioUntilUserActivation(page);
  await createMerchant(page.request);
  await openDashboard(page);
  const enable = page.getByRole("button", { name: "Enable sound" });
  const on = page.getByRole("button", { name: "Sound on" });
  // Blocked before any click: the control says so instead of pretending sound is on.
  await expect(enable).toBeVisible();
  await enable.click();
  await expect(on).toBeVisible();
  await on.click();
  await expect(enable).toBeVisible();
  // Off is remembered: a click anywhere does not turn it back on.
  await page.reload();
  await page.getByRole("heading", { name: "Merchant Dashboard" }).click();
  await expect(enable).toBeVisible();
  await enable.click();
  await expect(on).toBeVisible();
  // On is remembered: after a reload the audio is blocked again until the first click anywhere starts it.
  await page.reload();
  await expect(enable).toBeVisible();
  await page.getByRole("heading", { name: "Merchant Dashboard" }).click();
  await expect(on).toBeVisible();
});

test("a payment partly paid before it expired says so in the list, with the amount received", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await createMerchant(page.request);
  const payment = await createPayment(page.request, {
    currency: "CPXTB",
    amount: "10",
    description: "Half a cake",
    expiresInMinutes: 1,
  });
  await openDashboard(page);
  await expectLive(page);
  // 4 CPXTB matches no amount: it lands in the inbox, and the merchant assigns it to the payment.
  await payFromSecondDevAccount(page.request, payment.receivingAddress, 4_000_000_000_000_000_000n);
  const inbox = page.getByRole("region", { name: "Unmatched transfers" });
  await expect(inbox).toContainText("4 CPXTB");
  await inbox.getByRole("button", { name: "Assign to payment" }).click();
  const row = page.locator(`li[data-reference="${payment.reference}"]`);
  await expect(row).toContainText("Partly paid");
  await page
    .getByRole("alertdialog", { name: "Partial payment received" })
    .getByRole("button", { name: "Dismiss" })
    .click();
  await expect(row).toContainText("Partly paid, then expired", { timeout: 100_000 });
  await expect(row.getByTestId("received-before-expiry")).toHaveText(
    `Received 4 of ${payment.amountDue.replace(/0+$/, "")} CPXTB`,
  );
});
