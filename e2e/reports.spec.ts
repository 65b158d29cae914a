import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { PDFDocument } from "pdf-lib";
import { expect as baseExpect, test } from "./fixtures";
import { createMerchant, createPayment, type Payment, payFromDevAccount } from "./support/payments";

/**
 * /reports against the real server and chain: a payment paid on anvil shows up live in the totals and the chart;
 * presets are the merchant's calendar days; the CSV and the PDF download and read back; both themes at 390 px.
 */
const TZ = "Pacific/Auckland"; // far from UTC, so "today" there is often another day than the server's
test.use({ timezoneId: TZ });
// The dev payer account sends the transfers: one test of this file at a time.
test.describe.configure({ mode: "serial" });
// Each test makes a business, pays on the chain and loads a page of its own on a shared, busy machine.
test.setTimeout(120_000);
// What a person waits for can take long while eight engineers share two cores; auto-waiting returns at once otherwise.
const expect = baseExpect.configure({ timeout: 20_000 });

function todayIn(tz: string, now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: tz,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
}
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The dev payer is shared with other spec files running at the same time: a nonce taken meanwhile is retried. */
async function pay(request: APIRequestContext, payment: Payment) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await payFromDevAccount(request, payment.receivingAddress, BigInt(payment.amountDueBase));
    } catch (error) {
      if (attempt >= 5 || !/nonce|underpriced|already known/i.test(String(error))) throw error;
    }
  }
}

async function waitForStatus(page: Page, reference: string, status: string) {
  await expect
    .poll(async () => (await (await page.request.get(`/api/payments/public/${reference}`)).json()).status, {
      timeout: 15_000,
    })
    .toBe(status);
}

const stat = (page: Page, id: string) => page.getByTestId(id).locator("dd").first();

test("a payment just paid on the chain appears in the totals and the chart, live", async ({ page }) => {
  await createMerchant(page.request);
  const payment = await createPayment(page.request, {
    currency: "USD",
    amount: "10.00",
    description: "Report test, paid",
  });
  await createPayment(page.request, { currency: "USD", amount: "3.00", description: "Report test, open" });
  const today = todayIn(TZ);

  await page.goto("/reports");
  await expect(page.getByRole("heading", { name: "Reports & Analytics" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel("Time zone")).toHaveValue(TZ);
  await expect(page.getByRole("button", { name: "Last 30 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByLabel("From", { exact: true })).toHaveValue(addDays(today, -29));
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(today);
  await expect(stat(page, "stat-revenue")).toHaveText("$0.00");
  await expect(stat(page, "stat-paid")).toHaveText("0");
  await expect(page.locator('[data-status-row="pending"] td').first()).toHaveText("2");

  await pay(page.request, payment);
  // The open page hears the change over the live channel and reads the report again.
  await expect(stat(page, "stat-revenue")).toHaveText("$10.00", { timeout: 15_000 });
  await expect(stat(page, "stat-paid")).toHaveText("1");
  await expect(page.getByTestId("stat-paid")).toContainText("of 2 created");
  await expect(page.locator('[data-status-row="completed"] td').first()).toHaveText("1");
  const bar = page.locator(`[data-bucket="${today}"]`);
  await expect(bar).toHaveAttribute("data-value", "10.00");
  await expect(bar.locator("rect")).toBeVisible();
  await expect(
    page.getByRole("img", { name: /Revenue per day over 30 days; the highest was \$10\.00/ }),
  ).toBeVisible();
  // The numbers behind the chart, as a table.
  await page.getByText("Chart data as a table").click();
  const todayRow = page.locator("details table tbody tr").last();
  await expect(todayRow.getByRole("cell").last()).toHaveText("$10.00");

  await page.getByRole("button", { name: "CPXTB", exact: true }).click();
  await expect(bar).toHaveAttribute("data-value", /^\d+(\.\d+)?$/);
  await expect(page.getByRole("img", { name: /highest was [\d,.]+ CPXTB/ })).toBeVisible();
});

test("presets are calendar days in the chosen time zone; CSV and PDF download and read back", async ({
  page,
}) => {
  await createMerchant(page.request);
  const payment = await createPayment(page.request, {
    currency: "USD",
    amount: "7.25",
    description: '=cmd|" /C calc"!A0, a "quoted" description',
    orderId: "R-7",
  });
  await pay(page.request, payment);
  await waitForStatus(page, payment.reference, "completed");
  const today = todayIn(TZ);

  await page.goto("/reports");
  await expect(stat(page, "stat-revenue")).toHaveText("$7.25", { timeout: 30_000 });
  const from = page.getByLabel("From", { exact: true });
  const to = page.getByLabel("To", { exact: true });
  const presets: [string, string, string][] = [
    ["Today", today, today],
    ["Last 7 days", addDays(today, -6), today],
    ["This month", `${today.slice(0, 7)}-01`, today],
    [
      "Last month",
      `${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-01`,
      addDays(`${today.slice(0, 7)}-01`, -1),
    ],
  ];
  for (const [name, start, end] of presets) {
    await page.getByRole("button", { name, exact: true }).click();
    await expect(page.getByRole("button", { name, exact: true })).toHaveAttribute("aria-pressed", "true");
    await expect(from).toHaveValue(start);
    await expect(to).toHaveValue(end);
    await expect(page.getByTestId("report")).toHaveAttribute("data-range", `${start}/${end}`);
  }
  // Last month holds none of today's payments.
  await expect(stat(page, "stat-revenue")).toHaveText("$0.00");
  // Another zone moves "today" with it.
  // The zone picker is searchable: typing part of a name offers the zones, a whole name is taken at once.
  await page.getByLabel("Time zone").fill("Pacific/Pago_Pago");
  await page.getByRole("button", { name: "Today", exact: true }).click();
  await expect(to).toHaveValue(todayIn("Pacific/Pago_Pago"));
  await page.getByLabel("Time zone").fill(TZ);
  await page.getByLabel("Time zone").blur();
  // Custom: typing a date switches to it; a reversed range is refused before any request.
  await page.getByRole("button", { name: "Today", exact: true }).click();
  await from.fill(addDays(today, -3));
  await expect(page.getByRole("button", { name: "Custom" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("report")).toHaveAttribute("data-range", `${addDays(today, -3)}/${today}`);
  await expect(stat(page, "stat-revenue")).toHaveText("$7.25");
  await from.fill(addDays(today, 1));
  await expect(
    page.getByRole("alert").filter({ hasText: "The end date is before the start date." }),
  ).toBeVisible();
  await from.fill(today);

  const [csvDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(csvDownload.suggestedFilename()).toBe(`cpxtb-payments-${today}-to-${today}.csv`);
  const rows = parse(await readFile((await csvDownload.path())!), { bom: true, columns: true }) as Record<
    string,
    string
  >[];
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    reference: payment.reference,
    order_id: "R-7",
    description: `'=cmd|" /C calc"!A0, a "quoted" description`,
    status: "completed",
    status_name: "Paid",
    requested_usd: "7.25",
    usd_value: "7.25",
  });
  expect(rows[0]!.tx_hashes).toMatch(/^0x[0-9a-f]{64}$/);
  expect(rows[0]!.created_at!.slice(0, 10)).toBe(today);

  const [pdfDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download PDF" }).click(),
  ]);
  expect(pdfDownload.suggestedFilename()).toBe(`cpxtb-report-${today}-to-${today}.pdf`);
  const pdf = await PDFDocument.load(await readFile((await pdfDownload.path())!));
  expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
  expect(pdf.getTitle()).toBe(`Payments report ${today} to ${today}`);
});

for (const theme of ["light", "dark"] as const) {
  test(`the report reads in the ${theme} theme at 390 px`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
    await createMerchant(page.request);
    const payment = await createPayment(page.request, {
      currency: "CPXTB",
      amount: "42",
      description: "Theme",
    });
    await pay(page.request, payment);
    await waitForStatus(page, payment.reference, "completed");
    await page.goto("/reports");
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
    await expect(stat(page, "stat-paid")).toHaveText("1", { timeout: 30_000 });
    const bar = page.locator(`[data-bucket="${todayIn(TZ)}"] rect`);
    await expect(bar).toBeVisible();
    // The chart draws with the theme's own colours: bars in its primary, labels in its muted text colour.
    const colours = await page.evaluate(() => {
      const probe = document.createElement("span");
      document.body.append(probe);
      const resolve = (v: string) => {
        probe.style.color = `var(${v})`;
        return getComputedStyle(probe).color;
      };
      const result = {
        bar: getComputedStyle(document.querySelector('[data-testid="revenue-chart"] rect')!).fill,
        label: getComputedStyle(document.querySelector('[data-testid="revenue-chart"] text')!).fill,
        primary: resolve("--primary"),
        muted: resolve("--muted-foreground"),
      };
      probe.remove();
      return result;
    });
    expect(colours.bar).toBe(colours.primary);
    expect(colours.label).toBe(colours.muted);
    // The totals by status: every column, labelled, in one block per status (no table cut off at the edge).
    const completed = page.getByTestId("status-cards").locator('[data-status-row="completed"]');
    await expect(completed).toBeVisible();
    await expect(completed).toContainText("Paid");
    for (const label of ["Payments", "Due (CPXTB)", "Received (CPXTB)", "USD value"])
      await expect(completed.getByText(label, { exact: true })).toBeVisible();
    await expect(page.getByTestId("status-table")).toBeHidden();
    const box = await completed.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const dir = process.env.SCREENSHOTS_DIR;
    if (dir) {
      await page.screenshot({ path: `${dir}/reports-390-${theme}.png`, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      await expect(page.getByTestId("revenue-chart").locator("svg")).toHaveAttribute(
        "width",
        /^(1[0-9]{3}|[5-9][0-9]{2})$/,
      );
      await page.screenshot({ path: `${dir}/reports-1280-${theme}.png`, fullPage: true });
    }
  });
}
