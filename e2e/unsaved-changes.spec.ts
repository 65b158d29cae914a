import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createMerchant } from "./support/payments";

/**
 * A half-filled form is not lost without a word (issue 36): leaving it by a link or closing its sheet asks first
 * (a styled question: keep editing, or discard), closing the tab asks the browser's own question, and a form
 * with nothing typed (or saved) lets one go at once.
 */
test.setTimeout(120_000);

const question = (page: Page) => page.getByRole("alertdialog", { name: "Discard your changes?" });

/** The question at rest (no animation running), axe-clean, and its screenshot to look at. */
async function look(page: Page, name: string) {
  await question(page).evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
  const results = await new AxeBuilder({ page }).include('[role="alertdialog"]').analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`),
  ).toEqual([]);
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test("Edit business asks before its typing is discarded, and closes at once when nothing changed", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await createMerchant(page.request, { name: "Corner Coffee" });
  await page.goto("/merchant");
  const edit = page.getByRole("button", { name: "Edit business" });
  const sheet = page.getByRole("dialog", { name: "Edit business" });

  // Nothing typed: Escape closes it.
  await edit.click();
  await expect(sheet.getByLabel("Business name")).toHaveValue("Corner Coffee");
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();

  await edit.click();
  await sheet.getByLabel("Business name").fill("Corner Coffee & Cake");
  await page.keyboard.press("Escape");
  await expect(question(page)).toBeVisible();
  await expect(question(page)).toContainText("What you typed in Edit business has not been saved.");
  await expect(question(page).getByRole("button", { name: "Keep editing" })).toBeFocused();
  await look(page, "edit-business-question-390-dark");
  await question(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(question(page)).toBeHidden();
  await expect(sheet.getByLabel("Business name")).toHaveValue("Corner Coffee & Cake");

  // The sheet's close button and its Cancel ask too; Discard closes it and keeps the old name.
  await sheet.getByRole("button", { name: "Close without saving" }).click();
  await expect(question(page)).toBeVisible();
  await question(page).getByRole("button", { name: "Keep editing" }).click();
  await sheet.getByRole("button", { name: "Cancel" }).click();
  await question(page).getByRole("button", { name: "Discard changes" }).click();
  await expect(sheet).toBeHidden();
  await expect(page.getByTestId("business-name")).toHaveText("Corner Coffee");

  // Typed back to what it was: nothing to lose.
  await edit.click();
  await sheet.getByLabel("Business name").fill("Corner Coffee!");
  await sheet.getByLabel("Business name").fill("Corner Coffee");
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
  await expect(question(page)).toBeHidden();
});

test("New payment asks before a link leaves its typing behind; once created, it does not", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.addInitScript(() => window.localStorage.setItem("cpxtb-pay-theme", "light"));
  await createMerchant(page.request);
  await page.goto("/merchant");
  await page.getByLabel("Amount").fill("12.50");
  await page.getByRole("link", { name: "Counter" }).click();
  await expect(question(page)).toContainText("What you typed in New payment has not been saved.");
  await look(page, "new-payment-question-1280-light");
  await question(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(page).toHaveURL(/\/merchant$/);
  await expect(page.getByLabel("Amount")).toHaveValue("12.50");

  await page.getByRole("link", { name: "Counter" }).click();
  await question(page).getByRole("button", { name: "Discard changes" }).click();
  await expect(page).toHaveURL(/\/pos$/);

  // Created: the form's values are saved, leaving asks nothing.
  await page.goto("/merchant");
  await page.getByLabel("Amount").fill("3");
  await page.getByRole("button", { name: "Create payment" }).click();
  await expect(page.getByRole("link", { name: "Counter" })).toBeVisible();
  await expect(page.getByText("Awaiting payment").first()).toBeVisible();
  await page.getByRole("link", { name: "Counter" }).click();
  await expect(page).toHaveURL(/\/pos$/);
  await expect(question(page)).toBeHidden();
});

test("the contact form asks too; closing the tab asks the browser's question", async ({ page }) => {
  await createMerchant(page.request);
  await page.goto("/contact");
  // The form answers (the page's code has taken over the server's HTML) before it is typed into.
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("Name is required.")).toBeVisible();
  await page.getByLabel("Message").fill("Hello, I would like to know about fees");
  await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Privacy" }).click();
  await expect(question(page)).toContainText("What you typed in your message has not been saved.");
  await question(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(page.getByLabel("Message")).toHaveValue("Hello, I would like to know about fees");

  // The tab: the browser's own "Leave site?" (beforeunload), which the page cannot style.
  const asked = new Promise<string>((resolve) =>
    page.once("dialog", async (dialog) => {
      resolve(dialog.type());
      await dialog.accept();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe("beforeunload");
});

test("a new webhook endpoint's URL is not lost to a link", async ({ page }) => {
  await createMerchant(page.request);
  await page.goto("/webhooks");
  await page.getByLabel("Endpoint URL").fill("https://shop.example/hooks/cpxtb");
  await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Terms" }).click();
  await expect(question(page)).toContainText("What you typed in Add an endpoint has not been saved.");
  await question(page).getByRole("button", { name: "Discard changes" }).click();
  await expect(page).toHaveURL(/\/terms-of-service$/);
  await expect(page.locator("main h1").first()).toBeVisible();
});

test("the browser's Back button asks too: the page stays until the typing is discarded", async ({ page }) => {
  await createMerchant(page.request);
  await page.goto("/merchant");
  await expect(page.getByRole("heading", { name: "Merchant Dashboard" })).toBeVisible({ timeout: 60_000 });
  // Inside the app (no page load), as a person goes from one screen to the next.
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Webhooks" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await page.getByLabel("Endpoint URL").fill("https://shop.example/hooks/cpxtb");

  await page.goBack();
  await expect(question(page)).toContainText("What you typed in Add an endpoint has not been saved.");
  await expect(page).toHaveURL(/\/webhooks$/);
  await question(page).getByRole("button", { name: "Keep editing" }).click();
  await expect(question(page)).toBeHidden();
  await expect(page.getByLabel("Endpoint URL")).toHaveValue("https://shop.example/hooks/cpxtb");

  await page.goBack();
  await question(page).getByRole("button", { name: "Discard changes" }).click();
  await expect(page).toHaveURL(/\/merchant$/);
  await expect(page.getByRole("heading", { name: "Merchant Dashboard" })).toBeVisible();
});
