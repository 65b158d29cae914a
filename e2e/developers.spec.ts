import { expect, test } from "./fixtures";
import { createMerchant } from "./support/payments";

/**
 * /developers against the real server: a key is created in the page, its secret shown once, used from a
 * "server" (a request context without the browser's cookies) to create a payment the dashboard then lists, and
 * revoked, after which the same key is refused.
 */
test.setTimeout(120_000);

test("a key created on /developers creates a payment over /api/v1, is shown once and stops working once revoked", async ({
  page,
  playwright,
  baseURL,
}) => {
  await createMerchant(page.request, { name: "Key Shop" });
  await page.goto("/developers");
  await expect(page.getByRole("heading", { level: 1, name: "Developers" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("No keys yet.")).toBeVisible();
  // The e2e server runs on its embedded chain: a development install, whose keys are test keys.
  await expect(page.getByTestId("test-keys-notice")).toContainText("These are test keys");
  await expect(page.getByText("Authorization: Bearer cpx_test_…")).toBeVisible();
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/api/docs");

  await page.getByLabel("Name").fill("Web shop");
  await expect(page.getByRole("checkbox", { name: /Read payments/ })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: /Create payments/ })).toBeChecked();
  await page.getByRole("button", { name: "Create key" }).click();

  const shown = page.getByTestId("api-key-secret");
  await expect(shown).toHaveText(/^cpx_test_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId("new-api-key")).toContainText("You will not see it again");
  await expect(page.getByRole("button", { name: "Copy API key" })).toBeVisible();
  const secret = (await shown.textContent())!;
  const row = page.getByTestId("api-key-row").filter({ hasText: "Web shop" });
  await expect(row).toContainText(`${secret.slice(0, 13)}…`);
  await expect(row).toContainText("Last used never");

  // The shop's server: no browser cookies, only the key.
  const server = await playwright.request.newContext({ baseURL });
  const created = await server.post("/api/v1/payments", {
    headers: { authorization: `Bearer ${secret}`, "idempotency-key": "e2e-order-7" },
    data: { currency: "USD", amount: "4.20", description: "Order 7 from the web shop", orderId: "7" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const payment = await created.json();
  const read = await server.get(`/api/v1/payments/${payment.id}`, {
    headers: { authorization: `Bearer ${secret}` },
  });
  expect(read.status()).toBe(200);
  expect((await read.json()).orderId).toBe("7");

  // The dashboard lists the payment the API created.
  await page.goto("/payments");
  await expect(page.getByText("Order 7 from the web shop").first()).toBeVisible({ timeout: 30_000 });

  // Back on /developers after a reload: the key is listed (with its last use), its secret nowhere.
  await page.goto("/developers");
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText("Last used just now");
  await expect(page.getByTestId("api-key-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  expect(await page.content()).not.toContain(secret.slice(13));

  // Revoke, confirmed: the key disappears and is refused.
  await row.getByRole("button", { name: "Revoke Web shop" }).click();
  await expect(page.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText("No keys yet.")).toBeVisible();
  // The e2e server runs on its embedded chain: a development install, whose keys are test keys.
  await expect(page.getByTestId("test-keys-notice")).toContainText("These are test keys");
  await expect(page.getByText("Authorization: Bearer cpx_test_…")).toBeVisible();
  const refused = await server.get("/api/v1/payments", { headers: { authorization: `Bearer ${secret}` } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("UNAUTHENTICATED");
  await server.dispose();
});

// The reference page /api/docs itself: e2e/api-docs.spec.ts.

for (const theme of ["light", "dark"] as const) {
  test(`/developers reads in the ${theme} theme at 390 px and 1280 px`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
    await createMerchant(page.request);
    const key = await page.request.post("/api/merchant/api-keys", {
      data: { name: "Warehouse sync", scopes: ["payments:read"] },
    });
    expect(key.status()).toBe(201);
    await page.goto("/developers");
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
    await expect(page.getByTestId("api-key-row")).toContainText("Warehouse sync", { timeout: 30_000 });
    await page.getByLabel("Name").fill("Web shop");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByTestId("api-key-secret")).toBeVisible();
    await expect(page.getByTestId("api-key-row")).toHaveCount(2);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const dir = process.env.SCREENSHOTS_DIR;
    if (dir) {
      await page.screenshot({ path: `${dir}/developers-390-${theme}.png`, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: `${dir}/developers-1280-${theme}.png`, fullPage: true });
      await page
        .getByTestId("api-key-row")
        .filter({ hasText: "Warehouse sync" })
        .getByRole("button", { name: "Revoke Warehouse sync" })
        .click();
      await expect(page.getByRole("button", { name: "Revoke key" })).toBeVisible();
      await page.screenshot({ path: `${dir}/developers-1280-${theme}-revoke.png`, fullPage: true });
    }
  });
}
