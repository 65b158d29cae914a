import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createMerchant, payFromDevAccount } from "./support/payments";

type PublicPayment = { amountToPayBase: string; receivingAddress: string; status: string };

async function createLink(request: APIRequestContext, body: Record<string, unknown>) {
  const response = await request.post("/api/merchant/links", { data: body });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; slug: string; url: string };
}

test("a fixed-price link made on the Links screen is sold three times: three requests, three payments, stats 3", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await createMerchant(page.request, { name: "Ledger & Loaf" });
  await page.goto("/links");
  await page.getByRole("button", { name: "New link" }).click();
  const form = page.getByTestId("link-form");
  await form.getByLabel("Title").fill("Sourdough loaf");
  await form.getByLabel("Description (optional)").fill("Baked this morning.");
  await form.getByLabel("Price", { exact: true }).fill("4.20");
  await form.getByRole("button", { name: "Create link" }).click();
  const card = page.getByTestId("link-card").filter({ hasText: "Sourdough loaf" });
  await expect(card).toBeVisible();
  await expect(card.getByTestId("link-state")).toHaveText("On");
  const url = (await card.getByTestId("link-url").textContent())!;
  expect(url).toMatch(/\/l\/[a-z0-9]{10}$/);
  const path = new URL(url).pathname;

  const references: string[] = [];
  for (let sale = 1; sale <= 3; sale++) {
    // Each buyer is a stranger: a browser of their own, not signed in.
    const buyer = await browser.newContext();
    const pageOfBuyer = await buyer.newPage();
    await pageOfBuyer.goto(path);
    await expect(pageOfBuyer.getByTestId("link-title")).toHaveText("Sourdough loaf");
    await expect(pageOfBuyer.getByTestId("link-price")).toHaveText("$4.20");
    await expect(pageOfBuyer.getByTestId("merchant-name")).toHaveText("Ledger & Loaf");
    await pageOfBuyer.getByTestId("link-pay").click();
    await pageOfBuyer.waitForURL(/\/pay\/[A-Za-z0-9_-]+$/);
    const reference = new URL(pageOfBuyer.url()).pathname.split("/").pop()!;
    expect(references).not.toContain(reference);
    references.push(reference);
    await expect(pageOfBuyer.getByTestId("payment-status")).toHaveText("Awaiting payment");
    const payment = (await (
      await pageOfBuyer.request.get(`/api/payments/public/${reference}`)
    ).json()) as PublicPayment;
    await payFromDevAccount(pageOfBuyer.request, payment.receivingAddress, BigInt(payment.amountToPayBase));
    await expect(pageOfBuyer.getByTestId("payment-status")).toHaveText("Paid", { timeout: 60_000 });
    await buyer.close();
  }

  // Three requests of their own (each its own unique amount), all under the link.
  const link = (await (await page.request.get("/api/merchant/links")).json()).items[0];
  const payments = (await (await page.request.get(`/api/merchant/payments?linkId=${link.id}`)).json())
    .items as {
    reference: string;
    linkId: string;
    amountDueBase: string;
    status: string;
  }[];
  expect(payments.map((p) => p.reference).sort()).toEqual([...references].sort());
  expect(new Set(payments.map((p) => p.amountDueBase)).size).toBe(3);
  expect(payments.every((p) => p.linkId === link.id && p.status === "completed")).toBe(true);

  await page.reload();
  const stats = page.getByTestId("link-card").filter({ hasText: "Sourdough loaf" }).getByTestId("link-stats");
  await expect(stats.getByTestId("link-stat-requests")).toHaveText("3");
  await expect(stats.getByTestId("link-stat-paid")).toHaveText("3");
  await expect(stats.getByTestId("link-stat-sum")).toContainText("$12.60");

  // Switched off: its page says so, and offers no Pay.
  await card.getByRole("button", { name: "Switch off" }).click();
  await expect(card.getByTestId("link-state")).toHaveText("Off");
  const offHtml = await (await page.request.get(path)).text();
  expect(offHtml).toContain("This link is switched off");
  await page.goto(path);
  await expect(page.getByText("This link is switched off")).toBeVisible();
  await expect(page.getByTestId("link-pay")).toHaveCount(0);
});

test("a payer-chooses link refuses an amount below its minimum, then takes one above it", async ({
  page,
  consoleGuard,
}) => {
  // The refusal is an answer (400), which Chromium logs as a failed resource.
  consoleGuard.allow(/status of 400/);
  await createMerchant(page.request, { name: "Tip Jar Café" });
  const link = await createLink(page.request, {
    title: "Tip the barista",
    pricing: "open",
    currency: "USD",
    minAmount: "2.00",
  });
  const buyer = page.context();
  await buyer.clearCookies();
  await page.goto(`/l/${link.slug}`);
  const amount = page.getByLabel("Amount (USD)");
  await expect(amount).toHaveValue("2.00");
  await expect(page.getByText("You choose the amount: at least $2.00.")).toBeVisible();
  await amount.fill("1.50");
  await page.getByTestId("link-pay").click();
  await expect(page.getByTestId("link-error")).toHaveText("The least you can pay here is 2.00 USD.");
  expect(new URL(page.url()).pathname).toBe(`/l/${link.slug}`);

  await amount.fill("3.25");
  await page.getByTestId("link-pay").click();
  await page.waitForURL(/\/pay\/[A-Za-z0-9_-]+$/);
  await expect(page.getByTestId("payment-status")).toHaveText("Awaiting payment");
  await expect(page.getByText("$3.25")).toBeVisible();
});

test("a link's page arrives with the link in its HTML and hydrates in place", async ({ page }) => {
  await createMerchant(page.request, { name: "Ledger & Loaf <Bakery>" });
  const link = await createLink(page.request, {
    title: "Rye & Seeds",
    pricing: "fixed",
    currency: "CPXTB",
    amount: "150.5",
    quantityLimit: 5,
  });
  const response = await page.request.get(`/l/${link.slug}`);
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain("Ledger &amp; Loaf &lt;Bakery&gt;");
  expect(html).toContain("Rye &amp; Seeds");
  expect(html).toMatch(/data-testid="link-price">150\.5(<!-- -->)? CPXTB/);
  expect(html).toContain('data-testid="link-pay"');
  expect((await page.request.get("/l/no-such-link-here")).status()).toBe(404);

  await page.addInitScript(() => {
    document.addEventListener("readystatechange", () => {
      if (document.readyState !== "interactive") return;
      (window as unknown as { serverNode?: Element | null }).serverNode =
        document.querySelector('[data-testid="link-pay"]');
    });
  });
  await page.goto(`/l/${link.slug}`);
  await page.waitForFunction(() => !document.getElementById("root")?.hasAttribute("data-server-rendered"));
  // The button the server sent is the one on screen: nothing was painted twice.
  expect(
    await page.evaluate(
      () =>
        (window as unknown as { serverNode?: Element | null }).serverNode ===
        document.querySelector('[data-testid="link-pay"]'),
    ),
  ).toBe(true);
  await expect(page.getByRole("button", { name: "Open menu" })).toHaveCount(0);
});
