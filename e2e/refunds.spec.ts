import { expect, test } from "./fixtures";
import { openDashboard } from "./support/dashboard";
import { overpaidPayment, payerAddress } from "./support/refunds";

// A real refund on the embedded chain: the payer (anvil key #0) is shared with other specs, which retry a nonce
// clash; chain, server and wallet on a loaded machine get generous time.
test.describe.configure({ timeout: 180_000 });

test("an overpayment's excess is refunded from the detail sheet; the payment and the payer's page show it", async ({
  page,
}) => {
  const { payment } = await overpaidPayment(page, {
    amount: "3",
    excess: "2",
    description: "Refund of an overpaid espresso",
  });

  // The payer's page is open meanwhile: it hears the refund live (/ws), without a reload.
  const payerPage = await page.context().newPage();
  await payerPage.goto(`/pay/${payment.reference}`);
  await expect(payerPage.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await expect(payerPage.getByText(/sent 2 CPXTB more than due/)).toBeVisible();

  await openDashboard(page);
  await page
    .getByTestId("recent-payments")
    .getByRole("button", { name: /Refund of an overpaid espresso/ })
    .click();
  const detail = page.getByRole("dialog", { name: "Payment details" });
  await expect(detail.getByTestId("detail-status")).toHaveText("Paid");
  const refunds = detail.getByRole("region", { name: "Refunds" });
  await expect(refunds.getByText("No refund sent yet.")).toBeVisible();
  // The excess is offered first, to the address that paid.
  const amount = refunds.getByLabel("Amount to refund (CPXTB)");
  await expect(amount).toHaveValue("2");
  await expect(refunds.getByText(/sent 2 CPXTB more than due/)).toBeVisible();
  await expect(refunds.getByRole("radio", { name: new RegExp(payerAddress) })).toBeChecked();

  await refunds.getByRole("button", { name: "Send refund from wallet" }).click();
  await expect(refunds.getByRole("status")).toHaveText("Refund of 2 CPXTB verified on chain and recorded.", {
    timeout: 60_000,
  });
  await expect(detail.getByTestId("detail-refund-status")).toHaveText("Partially refunded");
  await expect(payerPage.getByTestId("pay-refunds")).toContainText(
    "Partly refunded: 2 CPXTB sent back to you",
  );
  await expect(payerPage.getByText(/more than due/)).toBeHidden();
  await payerPage.close();
  await expect(detail.getByTestId("detail-refunded")).toHaveText("2 CPXTB");
  const listed = refunds.getByTestId("detail-refunds").getByRole("listitem");
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText("Refunded 2 CPXTB");
  // The payment itself stays paid (refunds are beside the status), and the history row says it was refunded.
  await expect(detail.getByTestId("detail-status")).toHaveText("Paid");
  await page.keyboard.press("Escape");
  await expect(
    page.getByTestId("recent-payments").getByRole("button", { name: /Refund of an overpaid espresso/ }),
  ).toContainText("Partially refunded");

  // The payer's page, as the server renders it and as it runs.
  const html = await (await page.request.get(`/pay/${payment.reference}`)).text();
  expect(html).toContain("Partly refunded: 2 CPXTB sent back to you");
  await page.goto(`/pay/${payment.reference}`);
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  const notice = page.getByTestId("pay-refunds");
  await expect(notice).toContainText("Partly refunded: 2 CPXTB sent back to you");
  await expect(notice.getByRole("listitem")).toHaveCount(1);
  await expect(page.getByTestId("refund-status")).toHaveText("Partially refunded");
});

test("a payer without a known address gives one through a refund link; the merchant can refund to it", async ({
  page,
  browser,
}) => {
  await overpaidPayment(page, {
    amount: "4",
    excess: "1",
    description: "Paid from an exchange",
  });
  await openDashboard(page);
  await page
    .getByTestId("recent-payments")
    .getByRole("button", { name: /Paid from an exchange/ })
    .click();
  const detail = page.getByRole("dialog", { name: "Payment details" });
  const refunds = detail.getByRole("region", { name: "Refunds" });
  await refunds.getByRole("button", { name: "Create a refund link" }).click();
  const created = refunds.getByTestId("refund-link-created");
  await expect(created).toContainText("shown only once");
  const url = (await created.getByText(/\/refund\//).textContent())!.trim();
  await expect(refunds.getByTestId("refund-links")).toContainText("Waiting for the payer");

  // The payer, in a browser of their own.
  const payerContext = await browser.newContext();
  const payer = await payerContext.newPage();
  await payer.goto(new URL(url).pathname);
  await expect(payer.getByRole("heading", { name: "Refund address" })).toBeVisible();
  await expect(payer.getByTestId("refund-merchant")).toHaveText("Corner Coffee");
  const address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
  // A broken checksum is refused with the reason.
  await payer.getByLabel("Your wallet address").fill(address.replace("aAeb", "AAeb"));
  await payer.getByRole("button", { name: /Send address to Corner Coffee/ }).click();
  await expect(payer.getByRole("alert").filter({ hasText: "checksum" })).toBeVisible();
  await payer.getByLabel("Your wallet address").fill(address);
  await payer.getByRole("button", { name: /Send address to Corner Coffee/ }).click();
  await expect(payer.getByTestId("refund-address-done")).toContainText(address);
  // Used once: opened again, it says so.
  await payer.reload();
  await expect(payer.getByTestId("refund-address-done")).toContainText("cannot be used again");
  await payerContext.close();

  // The merchant's open sheet hears it (live) and offers the address as a destination.
  await expect(refunds.getByTestId("refund-links")).toContainText("Address received");
  await expect(refunds.getByRole("radio", { name: new RegExp(address) })).toBeVisible();
});
