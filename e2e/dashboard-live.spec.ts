import type { Page, PlaywrightWorkerArgs } from "@playwright/test";
import { expect as baseExpect, test } from "./fixtures";

// Pages, sign-ins and the live channel on a loaded machine: more patience than the default 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });

import { generatePrivateKey } from "viem/accounts";
import { expectLive, payFromSecondDevAccount, signInThroughForm } from "./support/dashboard";
import { createMerchant, createPayment, PASSWORD } from "./support/payments";
import { installWallet } from "./support/wallet";

// One payer account sends the transfers of this file: one test at a time.
// Sign-ins, a chain transfer and the indexer in each test: room for a loaded machine.
test.describe.configure({ mode: "serial", timeout: 120_000 });

/** Goes to /auth inside the app (no page load), so the live socket opened signed out is the one that stays. */
async function openSignInFromMenu(page: Page) {
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Sign in / Register" }).click();
  await expect(page.getByRole("form", { name: "Sign in" })).toBeVisible();
}

async function signOutFromMenu(page: Page) {
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
}

const row = (page: Page, reference: string) => page.locator(`li[data-reference="${reference}"]`);

/** A merchant signed in on a request context of its own (not the page's). */
async function newMerchant(playwright: PlaywrightWorkerArgs["playwright"]) {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const merchant = await createMerchant(request);
  return { request, ...merchant };
}

test("after signing in at /auth the dashboard is live: payments made elsewhere appear and turn Paid", async ({
  page,
  request,
}) => {
  const merchant = await createMerchant(request);
  await page.goto("/");
  // The socket is open before the sign-in, without a session: the case that stayed "Reconnecting" before.
  await expect(page.getByTestId("live-users")).toBeVisible({ timeout: 15_000 });
  await openSignInFromMenu(page);
  await signInThroughForm(page, merchant.username);
  await expectLive(page);

  // Created through the API (another tab, another member): listed without a reload.
  const payment = await createPayment(request, {
    currency: "CPXTB",
    amount: "7.25",
    description: "Made at the other till",
  });
  await expect(row(page, payment.reference)).toContainText("Made at the other till");
  await expect(row(page, payment.reference)).toContainText("Awaiting payment");

  await payFromSecondDevAccount(request, payment.receivingAddress, BigInt(payment.amountDueBase));
  const notice = page.getByRole("alertdialog", { name: "Payment received" });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("Made at the other till is paid.");
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(row(page, payment.reference)).toContainText("Paid");
});

/** Registers the business on the dashboard's form, signing ownership with the page's wallet. */
async function registerBusinessThroughForm(page: Page, name: string) {
  await expect(page.getByRole("heading", { name: "Register your business" })).toBeVisible();
  await page.getByLabel("Business name").fill(name);
  await page.getByLabel("Contact email").fill("owner@example.com");
  await page.getByRole("button", { name: "Sign with wallet and register" }).click();
  await expect(page.getByRole("heading", { name: "New payment" })).toBeVisible();
}

/** A payment made through the API with the page's own session turns Paid on the page, with the notice. */
async function expectPaidLive(page: Page, description: string) {
  await expectLive(page);
  const payment = await createPayment(page.request, { currency: "CPXTB", amount: "1.5", description });
  await expect(row(page, payment.reference)).toContainText("Awaiting payment");
  await payFromSecondDevAccount(page.request, payment.receivingAddress, BigInt(payment.amountDueBase));
  await expect(page.getByRole("alertdialog", { name: "Payment received" })).toContainText(
    `${description} is paid.`,
  );
}

test("after registering at /auth (no reload) the new merchant's dashboard is live", async ({ page }) => {
  await installWallet(page, page.request, { privateKey: generatePrivateKey() });
  await page.goto("/");
  await expect(page.getByTestId("live-users")).toBeVisible();
  await openSignInFromMenu(page);
  await page.getByRole("tab", { name: "Register" }).click();
  const form = page.getByRole("form", { name: "Register" });
  await form
    .getByLabel("Username")
    .fill(`live_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`);
  await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await form.getByLabel("Confirm password").fill(PASSWORD);
  await form.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/merchant$/);
  await registerBusinessThroughForm(page, "Registered Just Now");
  await expectPaidLive(page, "First sale after registering");
});

test("after Sign in with Ethereum (no reload) the dashboard is live", async ({ page }) => {
  await installWallet(page, page.request, { privateKey: generatePrivateKey() });
  await page.goto("/");
  await expect(page.getByTestId("live-users")).toBeVisible();
  await openSignInFromMenu(page);
  await page.getByRole("button", { name: "Sign in with Ethereum" }).click();
  await expect(page).toHaveURL(/\/merchant$/);
  await registerBusinessThroughForm(page, "Wallet Signed In");
  await expectPaidLive(page, "First sale after a wallet sign-in");
});

test("the dashboard follows sign-out and a sign-in to another account without a reload", async ({
  page,
  playwright,
}) => {
  const first = await newMerchant(playwright);
  const second = await newMerchant(playwright);
  await page.goto("/auth");
  await signInThroughForm(page, first.username);
  await expectLive(page);
  await signOutFromMenu(page);
  await openSignInFromMenu(page);
  await signInThroughForm(page, second.username);
  await expectLive(page);

  const theirs = await createPayment(first.request, {
    currency: "CPXTB",
    amount: "3",
    description: "Not mine",
  });
  const mine = await createPayment(second.request, { currency: "CPXTB", amount: "4", description: "Mine" });
  await expect(row(page, mine.reference)).toBeVisible();
  await expect(row(page, theirs.reference)).toHaveCount(0);

  await payFromSecondDevAccount(second.request, mine.receivingAddress, BigInt(mine.amountDueBase));
  await expect(page.getByRole("alertdialog", { name: "Payment received" })).toBeVisible();
  await first.request.dispose();
  await second.request.dispose();
});

test("a transfer that matches no payment appears in Unmatched transfers at once, inside its column", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const merchant = await createMerchant(page.request);
  await createPayment(page.request, {
    currency: "CPXTB",
    amount: "5",
    description: "A description long enough to widen the history column of the dashboard",
  });
  await page.goto("/merchant");
  await expectLive(page);
  const inbox = page.getByRole("region", { name: "Unmatched transfers" });
  await expect(inbox).toContainText("Nothing here.");
  await payFromSecondDevAccount(page.request, merchant.address, 1_234_567_000_000_000_000n);
  await expect(inbox).toContainText("1.234567 CPXTB");
  await expect(inbox.getByRole("button", { name: "Assign to payment" })).toBeVisible();

  // Desktop: the panel and everything in it stay inside the right-hand column.
  const overflow = await inbox.evaluate((section) => {
    const box = section.getBoundingClientRect();
    const out = [...section.querySelectorAll("*")].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5);
    });
    return { right: box.right, out: out.map((el) => el.outerHTML.slice(0, 80)) };
  });
  expect(overflow.out).toEqual([]);
  const history = await page.getByRole("region", { name: "Payments" }).boundingBox();
  const panel = await inbox.boundingBox();
  expect(panel!.x).toBeGreaterThanOrEqual(history!.x + history!.width);
  expect(panel!.x + panel!.width).toBeLessThanOrEqual(1280);
});

test("a dashboard load asks for each thing once", async ({ page }) => {
  await createMerchant(page.request);
  await createPayment(page.request, { currency: "CPXTB", amount: "2", description: "Tea" });
  const calls: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/")) calls.push(`${r.method()} ${url.pathname}${url.search}`);
  });
  await page.goto("/merchant");
  await expectLive(page);
  await expect(page.getByTestId("recent-payments")).toContainText("Tea");
  await expect(page.getByRole("region", { name: "Unmatched transfers" })).toContainText("Nothing here.");
  const duplicates = calls.filter((call, i) => calls.indexOf(call) !== i);
  expect(duplicates, calls.join("\n")).toEqual([]);
  expect(calls.sort()).toEqual(
    [
      "GET /api/user",
      "GET /api/merchant",
      "GET /api/merchant/payments?limit=20",
      "GET /api/merchant/inbox",
      "GET /api/ready",
    ].sort(),
  );
});
