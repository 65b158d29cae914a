import type { Page } from "@playwright/test";
import { expect, test, toast } from "./fixtures";
import { waitForMail } from "./support/mailbox";
import { createMerchant, PASSWORD } from "./support/payments";

// Sign-ins, the live channel and emails on a loaded machine.
test.describe.configure({ timeout: 120_000 });

const unique = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function openMenu(page: Page) {
  await page.getByRole("button", { name: "Open menu" }).click();
  return page.getByRole("dialog");
}

test("an owner invites staff by email; staff joins with a new account, takes payments without refunds, keys or webhooks, and loses access the moment they are removed", async ({
  page,
  browser,
}) => {
  await createMerchant(page.request, { name: "Corner Coffee" });
  await page.goto("/team");
  await expect(page.getByRole("heading", { name: "Members of Corner Coffee" })).toBeVisible({
    timeout: 60_000,
  });

  const email = `${unique("staff")}@example.com`;
  const invite = page.getByRole("form", { name: "Invite a member" });
  await invite.getByLabel("Email address").fill(email);
  await invite.getByLabel("Role").selectOption("staff");
  await invite.getByRole("button", { name: "Send invitation" }).click();
  await expect(toast(page, "Invitation sent")).toBeVisible();
  await expect(page.getByTestId("team-invitation").filter({ hasText: email })).toBeVisible();

  const path = await waitForMail(email, /(\/invitations\/[A-Za-z0-9_-]{43})/);

  // The invited person, in a browser of their own, with no account yet.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  const staffErrors: string[] = [];
  staff.on("console", (message) => {
    if (message.type() === "error") staffErrors.push(`${message.text()} (${message.location().url})`);
  });
  await staff.goto(path);
  await expect(staff.getByRole("heading", { name: "Join Corner Coffee" })).toBeVisible({ timeout: 60_000 });
  await expect(staff.getByText("You are invited as staff")).toBeVisible();
  await staff.getByRole("link", { name: "Create an account" }).click();

  const username = unique("staff");
  const register = staff.getByRole("form", { name: "Register" });
  // The invited address is already there: the new member has an email on file.
  await expect(register.getByLabel("Email (optional)")).toHaveValue(email);
  await register.getByLabel("Username").fill(username);
  await register.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await register.getByLabel("Confirm password").fill(PASSWORD);
  await register.getByRole("button", { name: "Create account" }).click();
  // Back on the invitation once signed in.
  await expect(staff).toHaveURL(new RegExp(`${path}$`));
  await staff.getByRole("button", { name: `Accept as ${username}` }).click();
  await expect(staff).toHaveURL(/\/merchant$/);
  await expect(staff.getByTestId("business-name")).toHaveText("Corner Coffee");
  await expect(staff.getByTestId("detection-status")).toHaveText(/Automatic Payment Detection Active/, {
    timeout: 30_000,
  });
  await expect(staff.getByRole("button", { name: "Edit business" })).toHaveCount(0);
  await expect(staff.getByRole("link", { name: "Team" })).toHaveCount(0);
  const shots = process.env.SCREENSHOTS_DIR;

  // Staff take a payment and see it in the history, without the refund section.
  await staff.getByLabel("Amount").fill("3");
  await staff.getByLabel("Currency").selectOption("CPXTB");
  await staff.getByLabel("Description (optional)").fill("Staff sale");
  await staff.getByRole("button", { name: "Create payment" }).click();
  const row = staff.getByTestId("recent-payments").getByRole("button", { name: /Staff sale/ });
  await expect(row).toBeVisible();
  await row.click();
  const detail = staff.getByRole("dialog", { name: "Payment details" });
  await expect(detail.getByText("Staff sale").first()).toBeVisible();
  await expect(detail.getByRole("region", { name: "Refunds" })).toHaveCount(0);
  await staff.keyboard.press("Escape");
  if (shots) await staff.screenshot({ path: `${shots}/staff-dashboard.png`, fullPage: true });

  // The menu offers no keys, webhooks, audit log or team.
  const menu = await openMenu(staff);
  await expect(menu.getByRole("link", { name: "Payment History" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Webhooks" })).toHaveCount(0);
  await expect(menu.getByRole("link", { name: "Developers" })).toHaveCount(0);
  await expect(menu.getByRole("link", { name: "Audit Log" })).toHaveCount(0);
  await expect(menu.getByRole("link", { name: "Team" })).toHaveCount(0);
  await staff.keyboard.press("Escape");

  // Opened by address, each screen staff cannot use says so the same way, with no form to fill in vain.
  for (const width of [390, 1280]) {
    await staff.setViewportSize({ width, height: 900 });
    for (const [path, sentence] of [
      ["/developers", "Only owners and admins can create and manage API keys."],
      ["/webhooks", "Only owners and admins can add and manage webhooks."],
      ["/audit-log", "Only owners and admins can see the audit log."],
      ["/team", "Only owners and admins can manage the team."],
    ] as const) {
      await staff.goto(path);
      const notice = staff.getByTestId("role-notice");
      await expect(notice).toContainText(sentence, { timeout: 30_000 });
      await expect(notice).toContainText("You are staff of Corner Coffee.");
      await expect(staff.locator("main form")).toHaveCount(0);
      await expect(staff.getByText(/Check your connection/)).toHaveCount(0);
      if (shots)
        await staff.screenshot({ path: `${shots}/staff-${path.slice(1)}-${width}.png`, fullPage: true });
    }
  }
  await staff.goto("/merchant");
  await expect(staff.getByTestId("business-name")).toHaveText("Corner Coffee", { timeout: 30_000 });

  // The owner sees the payment taken by staff, and the new member in the team.
  await page.reload();
  const member = page.getByTestId("team-member").filter({ hasText: username });
  await expect(member).toContainText("Staff");
  await member.getByRole("button", { name: `Remove ${username}` }).click();
  await member.getByRole("button", { name: `Yes, remove ${username}` }).click();
  await expect(toast(page, `${username} was removed`)).toBeVisible();
  await expect(page.getByTestId("team-member").filter({ hasText: username })).toHaveCount(0);

  // The staff member's open dashboard says so at once (the live channel dropped them).
  await expect(staff.getByTestId("access-lost")).toContainText("You no longer have access to this business");
  if (shots) await staff.screenshot({ path: `${shots}/staff-access-lost.png`, fullPage: true });
  // The only errors in their browser are the refusals themselves (and the signed-out /api/user before joining).
  expect(staffErrors.filter((text) => !/status of 403|status of 401 .*\/api\/user\)$/.test(text))).toEqual(
    [],
  );
  await staffContext.close();
});
