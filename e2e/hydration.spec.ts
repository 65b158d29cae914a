import type { Page, Route } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createMerchant, createPayment, payFromDevAccount } from "./support/payments";

/** True once the app owns the server's markup (main.tsx removes the marker in hydration's commit). */
const hydrated = (page: Page) =>
  page.waitForFunction(() => !document.getElementById("root")?.hasAttribute("data-server-rendered"));

/**
 * Remembers the nodes the selectors find once the server's HTML is parsed, before any script has run. `kept()`
 * says, per selector, whether that node is still the one on screen: hydrated in place, not painted twice.
 */
async function rememberServerNodes(page: Page, selectors: string[]) {
  await page.addInitScript((list) => {
    document.addEventListener("readystatechange", () => {
      if (document.readyState !== "interactive") return;
      (window as unknown as { serverNodes?: (Element | null)[] }).serverNodes = list.map((selector) =>
        document.querySelector(selector),
      );
    });
  }, selectors);
  return () =>
    page.evaluate(
      (list) =>
        list.map((selector, i) => {
          const node = (window as unknown as { serverNodes?: (Element | null)[] }).serverNodes?.[i];
          return node != null && node === document.querySelector(selector);
        }),
      selectors,
    );
}

// Decision 017: the server-rendered pages are hydrated, not replaced. The fixture's console guard fails the test on
// any console error or page error, which is where React reports a hydration mismatch.
for (const path of ["/", "/blog", "/blog/security-checklist-for-merchants"]) {
  test(`${path} is hydrated in place (light theme, signed in)`, async ({ page }) => {
    // Not the default (dark) theme and a session: what the server cannot know must not break hydration.
    await page.addInitScript(() => localStorage.setItem("cpxtb-pay-theme", "light"));
    const kept = await rememberServerNodes(page, ["main", "main h1"]);
    const username = `hyd_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const register = await page.request.post("/api/register", {
      data: { username, password: "correct horse battery staple" },
    });
    expect(register.ok()).toBe(true);

    const workers: string[] = [];
    page.on("worker", (worker) => workers.push(new URL(worker.url()).pathname));
    await page.goto(path);
    await hydrated(page);
    // The nodes the server sent are the ones on screen: nothing was painted twice.
    expect(await kept()).toEqual([true, true]);
    // ICU's first use was paid by a worker, off the page's thread (public/intl-warm-up.js).
    expect(workers).toEqual(["/intl-warm-up.js"]);
    await expect(page.getByTestId("theme-toggle")).toHaveAttribute("aria-label", "Switch to dark theme");
    await expect(page.locator("html")).toHaveClass(/\blight\b/);
    // The page was painted before its code and the session were asked for (decision 023): neither shares the
    // network with the first paint.
    const order = await page.evaluate(() => {
      const starts = (pattern: RegExp) =>
        performance
          .getEntriesByType("resource")
          .filter((entry) => pattern.test(new URL(entry.name).pathname))
          .map((entry) => entry.startTime);
      return {
        paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
        code: Math.min(...starts(/^\/assets\/.*\.js$/)),
        session: starts(/^\/api\/user$/),
        warmUp: starts(/^\/intl-warm-up\.js$/),
        // The page was painted with the app's whole stylesheet inline: the app asks for no sheet of its own.
        sheets: starts(/\.css$/),
      };
    });
    expect(order.sheets).toEqual([]);
    expect(order.warmUp).toHaveLength(1);
    expect(order.paint).toBeLessThanOrEqual(order.warmUp[0]!);
    expect(Number.isFinite(order.code)).toBe(true); // the code was asked for (the page hydrated)
    expect(order.paint).toBeLessThanOrEqual(order.code);
    // Asked once: the app took the answer index.html's script asked for with the code.
    expect(order.session).toHaveLength(1);
    expect(order.paint).toBeLessThanOrEqual(order.session[0]!);
  });
}

test("a tap on a server-rendered button before the app has loaded is honoured once", async ({ page }) => {
  // The page's scripts are held back until the button has been tapped, as on a slow phone network.
  const held: Route[] = [];
  let release = false;
  await page.route(/\/assets\/.*\.js$/, (route) => (release ? route.continue() : void held.push(route)));
  await page.goto("/", { waitUntil: "commit" });

  const toggle = page.getByTestId("theme-toggle");
  await expect(toggle).toHaveAttribute("aria-label", "Switch to light theme");
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await toggle.click();
  expect(held.length).toBeGreaterThan(0);
  release = true;
  for (const route of held) await route.continue();

  await hydrated(page);
  await expect(page.locator("html")).toHaveClass(/\blight\b/);
  await expect(toggle).toHaveAttribute("aria-label", "Switch to dark theme");
  expect(await page.evaluate(() => localStorage.getItem("cpxtb-pay-theme"))).toBe("light");
});

test("the pay page arrives with the payment in its HTML, then hydrates in place and goes live", async ({
  page,
}) => {
  await createMerchant(page.request, { name: "Ledger & Loaf <Bakery>" });
  const payment = await createPayment(page.request, {
    currency: "USD",
    amount: "4.20",
    description: "Sourdough",
  });

  // What a phone gets before any script runs: merchant, amount, countdown, status and the QR code itself.
  for (const url of [`/pay/${payment.reference}`, `/easy-payment?ref=${payment.reference}`]) {
    const response = await page.request.get(url);
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toContain("Ledger &amp; Loaf &lt;Bakery&gt;");
    expect(html).toMatch(/data-testid="amount-due"><span class="tabular-nums">[\d,]+\.\d+(<!-- -->)? CPXTB/);
    expect(html).toMatch(/Expires in 1?\d:\d\d/);
    expect(html).toContain("Awaiting payment");
    expect(html).toMatch(/data-slot="qr-code"[^>]*>\s*<svg[^>]*><path d="M\d/);
    expect(html).not.toContain("<script>window"); // the data is JSON, not a script
  }

  const kept = await rememberServerNodes(page, ['[data-slot="qr-code"] svg']);
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.goto(`/pay/${payment.reference}`);
  await hydrated(page);
  expect(await kept()).toEqual([true]);
  await expect(page.getByTestId("countdown")).toHaveText(/Expires in 1?\d:\d\d/);
  // A checkout has no app header: the payer's phone loads no menu panel nor live count, even once idle.
  await expect(page.getByRole("button", { name: "Open menu" })).toHaveCount(0);
  await page.waitForLoadState("networkidle");
  expect(scripts.filter((url) => /side-menu-panel|live-users-widget/.test(url))).toEqual([]);

  // Hydrated pages subscribe to /ws: the payment turns Paid without a reload.
  await payFromDevAccount(page.request, payment.receivingAddress, BigInt(payment.amountDueBase));
  await expect(page.getByTestId("payment-status")).toHaveText("Paid", { timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  // A paid payment's page is rendered paid by the server.
  const paidHtml = await (await page.request.get(`/pay/${payment.reference}`)).text();
  expect(paidHtml).toContain("Payment Successful");
});

test("an unknown payment's page is a 404 with its explanation, before any script runs", async ({ page }) => {
  const response = await page.request.get("/pay/AAAAAAAAAAAAAAAAAAAAAAAAAA");
  expect(response.status()).toBe(404);
  const html = await response.text();
  expect(html).toContain("Payment not found");
  expect(html).toContain("do not send any tokens for it");
  await page.goto("/pay/AAAAAAAAAAAAAAAAAAAAAAAAAA");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Payment not found" })).toBeVisible();
});

test("the dashboard arrives with its frame for a signed-in merchant, then hydrates in place and loads the business", async ({
  page,
}) => {
  await createMerchant(page.request, { name: "Ledger & Loaf <Bakery>" });

  // Before any script runs: the page's title and backdrop, the signed-in user's data for hydration, and the
  // business section still loading (the browser asks for the business itself).
  const response = await page.request.get("/merchant");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("no-store");
  const html = await response.text();
  expect(html).toContain('<div id="root" data-server-rendered>');
  expect(html).toMatch(/<h1[^>]*>Merchant Dashboard<\/h1>/);
  expect(html).toContain("brand-backdrop");
  expect(html).toContain('aria-busy="true"');
  expect(html).not.toContain("Ledger &amp; Loaf");

  const kept = await rememberServerNodes(page, ["main h1"]);
  await page.goto("/merchant");
  await hydrated(page);
  expect(await kept()).toEqual([true]);
  await expect(page.getByTestId("business-name")).toHaveText("Ledger & Loaf <Bakery>");
  await expect(page.getByTestId("detection-status")).toContainText("Automatic Payment Detection Active");

  // Signed out, the same address is the client's page, which sends the visitor to sign in.
  await page.context().clearCookies();
  const signedOut = await page.request.get("/merchant");
  expect(await signedOut.text()).toContain('<div id="root"></div>');
  await page.goto("/merchant");
  await expect(page).toHaveURL(/\/auth/);
});
