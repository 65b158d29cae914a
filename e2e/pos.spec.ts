import AxeBuilder from "@axe-core/playwright";
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

test("opening the counter asks for its business, products and today's sales once each, with the session", async ({
  page,
  request,
}) => {
  const merchant = await createMerchant(request, { name: "Early Bird" });
  await signIn(page, merchant.username);
  const asked: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/assets/pos-"))
      asked.push(url.pathname + url.search);
  });
  await page.goto("/pos");
  await expect(page.getByTestId("pos-counter")).toBeVisible();
  await expect(page.getByTestId("pos-today")).toContainText("Today: 0 sales");
  // index.html asked for them beside the session, before the app's code ran; the app took those answers.
  const times = (match: (url: string) => boolean) => asked.filter(match).length;
  expect(times((u) => u === "/api/merchant")).toBe(1);
  expect(times((u) => u === "/api/merchant/links?products=true")).toBe(1);
  expect(times((u) => u.startsWith("/api/merchant/pos/today?since="))).toBe(1);
  // Asked before the counter's own code was, not after it ran.
  const first = (match: (url: string) => boolean) => asked.findIndex(match);
  expect(first((u) => u.startsWith("/api/merchant/pos/today?"))).toBeLessThan(
    first((u) => u.startsWith("/assets/pos-")),
  );
});

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

for (const width of [390, 1024]) {
  test(`at ${width} px: products tapped into a cart are charged as one request that names them`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 768 });
    await page.emulateMedia({ colorScheme: width === 390 ? "dark" : "light" });
    await createMerchant(page.request, { name: "Corner Coffee", tipPresets: [10] });
    const product = async (data: Record<string, unknown>) =>
      expect((await page.request.post("/api/merchant/links", { data })).status()).toBe(201);
    await product({ title: "Flat white", pricing: "fixed", currency: "USD", amount: "4.20" });
    await product({ title: "Bagel", pricing: "fixed", currency: "USD", amount: "2.50" });
    await product({ title: "Beans 250 g", pricing: "fixed", currency: "CPXTB", amount: "100.125" });
    // Not products: a payer-chooses link, and a switched-off one.
    await product({ title: "Tip jar", pricing: "open", currency: "USD", minAmount: "1.00" });
    await product({ title: "Old cake", pricing: "fixed", currency: "USD", amount: "3.00", active: false });

    await page.goto("/pos");
    const grid = page.getByTestId("pos-products");
    await expect(grid.getByTestId("pos-product")).toHaveCount(2);
    await expect(grid).toContainText("1 product is priced in CPXTB: switch the counter to CPXTB to sell it.");
    await expect(grid).not.toContainText("Tip jar");
    await expect(grid).not.toContainText("Old cake");

    await grid.getByRole("button", { name: /^Add Flat white, 4\.20 USD/ }).click();
    await grid.getByRole("button", { name: /^Add Flat white/ }).click();
    await grid.getByRole("button", { name: /^Add Bagel, 2\.50 USD/ }).click();
    await grid.getByRole("button", { name: /^Add Bagel/ }).click();
    const cart = page.getByRole("list", { name: "Cart" });
    await expect(cart.getByRole("listitem")).toHaveText([
      /2 × Flat white\s*8\.40 USD/,
      /2 × Bagel\s*5\.00 USD/,
    ]);
    await cart.getByRole("button", { name: "One less Bagel" }).click();
    await expect(cart.getByRole("listitem")).toHaveText([
      /2 × Flat white\s*8\.40 USD/,
      /1 × Bagel\s*2\.50 USD/,
    ]);
    // The cart is in the counter's currency: the other one waits until the cart is empty.
    await expect(page.getByRole("button", { name: "CPXTB", exact: true })).toBeDisabled();
    // Something typed besides the cart adds to it, and the tip is on the whole.
    await typeAmount(page, ["1", "00"]);
    await page.getByRole("button", { name: "10%", exact: true }).click();
    await page.screenshot({ path: test.info().outputPath(`pos-products-${width}.png`), fullPage: true });
    // The grid and the cart are as accessible as the rest of the counter (axe: no serious or critical problem).
    await page.evaluate(() =>
      Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
    );
    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`),
    ).toEqual([]);
    await page.getByRole("button", { name: /^Charge 13\.09 USD \(incl\. 10% tip\)/ }).click();

    const customer = page.getByTestId("pos-customer");
    await expect(customer.getByTestId("pos-customer-usd")).toHaveText("$13.09 USD");
    const payments = (await (await page.request.get("/api/merchant/payments")).json()).items as {
      description: string;
      amountUsd: string;
    }[];
    expect(payments).toHaveLength(1);
    expect(payments[0]!.description).toBe("2 × Flat white, Bagel, other 1.00 USD, incl. 10% tip (1.19 USD)");
    await customer.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "New sale" }).click();

    // The next sale starts with an empty cart; the CPXTB product sells in CPXTB, to the thousandth.
    await expect(page.getByRole("list", { name: "Cart" })).toHaveCount(0);
    await page.getByRole("button", { name: "CPXTB", exact: true }).click();
    await grid.getByRole("button", { name: /^Add Beans 250 g, 100\.125 CPXTB/ }).click();
    await page.getByRole("button", { name: "Charge 100.125 CPXTB" }).click();
    await expect(customer).toContainText(/100\.125\d* CPXTB/);
  });
}

// Visual check (UI.md): the counter with products at 390 and 1280 px, light and dark. Only with SCREENSHOTS_DIR.
const shots = process.env.SCREENSHOTS_DIR;
for (const width of [390, 1280]) {
  for (const theme of ["dark", "light"] as const) {
    test(`screenshots of the counter at ${width} px, ${theme}`, async ({ page }) => {
      test.skip(!shots, "set SCREENSHOTS_DIR to take screenshots");
      await page.emulateMedia({ colorScheme: theme });
      await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await createMerchant(page.request, { name: "Corner Coffee", tipPresets: [10, 15] });
      await page.goto("/pos");
      await expect(page.getByTestId("pos-today")).toContainText("Today: 0 sales");
      await page.screenshot({ path: `${shots}/pos-empty-${width}-${theme}.png`, fullPage: true });
      for (const [title, amount] of [
        ["Flat white", "4.20"],
        ["Bagel", "2.50"],
        ["Cinnamon bun", "3.80"],
        ["Orange juice", "3.00"],
      ] as const)
        await page.request.post("/api/merchant/links", {
          data: { title, pricing: "fixed", currency: "USD", amount },
        });
      await page.reload();
      await page.getByRole("button", { name: /^Add Flat white/ }).click();
      await page.getByRole("button", { name: /^Add Bagel/ }).click();
      await expect(page.getByRole("list", { name: "Cart" })).toBeVisible();
      await page.screenshot({ path: `${shots}/pos-products-${width}-${theme}.png`, fullPage: true });
    });
  }
}
