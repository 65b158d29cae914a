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
