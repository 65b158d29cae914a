import type { Page } from "@playwright/test";
import { expect as baseExpect, test } from "./fixtures";
import { payFromSecondDevAccount, signInThroughForm } from "./support/dashboard";
import { createMerchant } from "./support/payments";

// Sign-ins, chain transfers and the indexer on a loaded machine: patience.
const expect = baseExpect.configure({ timeout: 30_000 });
// One payer account (dev key #1) sends this file's transfers: one test at a time.
test.describe.configure({ mode: "serial", timeout: 180_000 });

async function signIn(page: Page, username: string) {
  await page.goto("/auth");
  await signInThroughForm(page, username);
}

/** Types an amount on the counter's keypad, key by key, as a cashier does. */
async function typeAmount(page: Page, keys: string[]) {
  const keypad = page.getByRole("group", { name: "Keypad" });
  for (const key of keys) await keypad.getByRole("button", { name: key, exact: true }).click();
}

for (const width of [390, 1024]) {
  test(`at ${width} px: keypad → charge → paid from another device → Paid → back to the keypad`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 768 });
    // The tablet looks at the dark theme, the phone at the light one (screenshots to look at).
    await page.emulateMedia({ colorScheme: width === 390 ? "light" : "dark" });
    const shot = (name: string) =>
      page.screenshot({ path: test.info().outputPath(`pos-${width}-${name}.png`) });
    const merchant = await createMerchant(request, { name: "Corner Coffee", tipPresets: [10, 15] });
    await signIn(page, merchant.username);
    await page.goto("/pos");
    await expect(page.getByTestId("pos-counter")).toBeVisible();
    await expect(page.getByTestId("pos-today")).toContainText("Today: 0 sales");
    // Installable: the manifest is linked from this page.
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/pos.webmanifest");
    const manifest = await (await request.get("/pos.webmanifest")).json();
    expect(manifest).toMatchObject({ start_url: "/pos", display: "standalone" });

    await page.getByRole("button", { name: "CPXTB", exact: true }).click();
    await typeAmount(page, ["1", "2", "5"]);
    await expect(page.getByTestId("pos-amount")).toContainText("1.25");
    await page.getByRole("button", { name: "10%", exact: true }).click();
    await page.getByLabel("Note or order number (optional)").fill("T-12");
    await shot("counter");
    await page.getByRole("button", { name: /^Charge 1\.38 CPXTB/ }).click();

    const customer = page.getByTestId("pos-customer");
    await expect(customer).toBeVisible();
    await expect(customer).toContainText("Corner Coffee");
    await expect(customer.getByRole("img", { name: "QR code to pay with a wallet app" })).toBeVisible();
    await expect(page.getByTestId("pos-live")).toHaveText("Live");
    const uri = await customer.getByRole("link", { name: "Open in wallet app" }).getAttribute("href");
    expect(uri).toMatch(/^ethereum:/);
    await shot("customer");
    // The amount the QR asks for, paid from a second device (another browser context's wallet: a dev key).
    const qr = customer.getByRole("img", { name: "QR code to pay with a wallet app" });
    const box = await qr.boundingBox();
    expect(box!.width).toBeGreaterThan(width === 390 ? 250 : 300);
    const amountBase = BigInt(new URL(uri!.replace("ethereum:", "https://x/")).searchParams.get("uint256")!);
    const address = uri!.match(/address=(0x[0-9a-fA-F]{40})/)![1]!;
    await payFromSecondDevAccount(request, address, amountBase);

    const paid = page.getByTestId("pos-paid");
    await expect(paid).toBeVisible({ timeout: 60_000 });
    await expect(paid).toContainText("Paid");
    await shot("paid");
    await paid.click();
    await expect(page.getByTestId("pos-counter")).toBeVisible();
    await expect(page.getByTestId("pos-today")).toContainText("Today: 1 sale");
  });
}

test("a cancelled request paid afterwards lands in the inbox; the dashboard never shows a paid QR as open", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const merchant = await createMerchant(request);
  await signIn(page, merchant.username);
  await page.goto("/pos");
  await typeAmount(page, ["2", "00"]);
  await page.getByRole("button", { name: /^Charge 2\.00 USD/ }).click();
  const customer = page.getByTestId("pos-customer");
  await expect(customer.getByRole("img", { name: "QR code to pay with a wallet app" })).toBeVisible();
  const uri = (await customer.getByRole("link", { name: "Open in wallet app" }).getAttribute("href"))!;
  await customer.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("pos-closed")).toContainText("Cancelled");
  await expect(customer.getByRole("img", { name: "QR code to pay with a wallet app" })).toHaveCount(0);

  // The customer pays the QR they had scanned anyway: the transfer lands in the inbox.
  const amountBase = BigInt(new URL(uri.replace("ethereum:", "https://x/")).searchParams.get("uint256")!);
  const address = uri.match(/address=(0x[0-9a-fA-F]{40})/)![1]!;
  await payFromSecondDevAccount(request, address, amountBase);
  await page.getByRole("button", { name: "New sale" }).click();
  await page.getByRole("link", { name: "Dashboard" }).click();
  await expect(page.getByRole("heading", { name: "New payment" })).toBeVisible();
  await expect
    .poll(async () => (await (await page.request.get("/api/merchant/inbox")).json()).items.length, {
      timeout: 60_000,
    })
    .toBe(1);

  // The dashboard's just-created card: paid → its QR is gone and it says Paid.
  await page.getByLabel("Amount").fill("1.75");
  await page.getByLabel("Currency").selectOption("CPXTB");
  await page.getByRole("button", { name: "Create payment" }).click();
  const created = page.getByTestId("new-payment");
  await expect(created.getByRole("img", { name: "QR code of the new payment" })).toBeVisible();
  const link = (await created.getByRole("link").first().textContent())!;
  const reference = link.split("/pay/")[1]!;
  const pub = await (await page.request.get(`/api/payments/public/${reference}`)).json();
  await payFromSecondDevAccount(request, pub.receivingAddress, BigInt(pub.amountToPayBase));
  await expect(created.getByTestId("new-payment-status")).toContainText("Paid", { timeout: 60_000 });
  await expect(created.getByRole("img", { name: "QR code of the new payment" })).toHaveCount(0);
  await expect(created).toHaveAttribute("data-payable", "false");
});
