import { LOCALE_NAMES } from "../common/src/locales";
import { expect as baseExpect, test, toast } from "./fixtures";
import { type Catalog, catalogOf, expectTranslated } from "./support/i18n";
import { waitForMail } from "./support/mailbox";
import { createMerchant, PASSWORD } from "./support/payments";

/**
 * The team, an invitation and the audit log in their reader's language (issue 37), at a phone's width, in Arabic
 * (right to left) and German (the longest words): an owner invites two people, one joins from the invitation page,
 * meets the role notice of the screens staff cannot use, and is removed; the owner's audit log names each step. On
 * each screen: no English word of the team's, the checkout's or the shell's catalogs in the page (its header and
 * footer too), no sideways scroll, axe clean, <html lang dir> right.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
const BUSINESS = "Corner Coffee";
const AREAS = ["team", "pay", "shell", "site"] as const;
const INVITATION = /(\/invitations\/[A-Za-z0-9_-]{43})/;

const unique = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A message with its plain placeholders filled (no plural or select in the ones used here). */
const fill = (message: string | undefined, values: Record<string, string>) =>
  Object.entries(values).reduce((text, [name, value]) => text.replaceAll(`{${name}}`, value), message ?? "");

for (const locale of ["ar", "de"] as const) {
  test.describe(`in ${LOCALE_NAMES[locale]}`, () => {
    const viewport = { width: 390, height: 844 };
    test.use({ locale, viewport });

    test(`${locale}: team, invitation, role notice and audit log, with no English left`, async ({
      page,
      browser,
    }) => {
      test.setTimeout(240_000);
      const t: Catalog = catalogOf(locale, AREAS);
      const staffEmail = `${unique("staff")}@example.com`;
      const adminEmail = `${unique("admin")}@example.com`;
      const username = unique("staff");
      const owner = await createMerchant(page.request, { name: BUSINESS });
      const allowed = `${BUSINESS} ${staffEmail} ${adminEmail} ${username} ${owner.username} CPXTB Pay`;
      const check = (target: typeof page, where: string) =>
        expectTranslated(target, locale, where, { areas: AREAS, allowed, root: "body" });

      // The owner invites staff and an admin.
      await page.goto("/team");
      await expect(
        page.getByRole("heading", { name: fill(t["team.members.title"], { business: BUSINESS }) }),
      ).toBeVisible({
        timeout: 60_000,
      });
      const invite = page.getByRole("form", { name: t["team.invite.title"] });
      for (const [email, role] of [
        [staffEmail, "staff"],
        [adminEmail, "admin"],
      ] as const) {
        await invite.getByLabel(t["team.invite.email"] as string).fill(email);
        await invite.getByLabel(t["team.invite.role"] as string).selectOption(role);
        await expect(invite.getByText(t[`team.roleHelp.${role}`] as string)).toBeVisible();
        await invite.getByRole("button", { name: t["team.invite.send"] }).click();
        await expect(toast(page, t["team.invite.sent"] as string)).toBeVisible();
        await expect(page.getByTestId("team-invitation").filter({ hasText: email })).toBeVisible();
      }
      const path = await waitForMail(staffEmail, INVITATION);

      // The invited person, in a browser of their own, signed out: what the invitation offers.
      const other = await browser.newContext({ locale, viewport });
      const guest = await other.newPage();
      await guest.goto(path);
      await expect(
        guest.getByRole("heading", { name: fill(t["team.invitation.join"], { business: BUSINESS }) }),
      ).toBeVisible({
        timeout: 60_000,
      });
      const offer = (t["team.invitation.offerStaff"] as string).split("{email}")[0]?.trim() as string;
      await expect(guest.getByText(offer)).toBeVisible();
      await expect(guest.getByRole("link", { name: t["team.invitation.createAccount"] })).toBeVisible();
      await check(guest, "the invitation page");
      await guest.screenshot({ path: test.info().outputPath(`invitation-${locale}.png`), fullPage: true });
      // A link cut short when it was copied: refused for its shape, said in the reader's words (it was English).
      await guest.goto(path.slice(0, -5));
      await expect(guest.getByTestId("invitation-error")).toContainText(
        t["team.error.invitationInvalid"] as string,
      );
      await check(guest, "a cut-short invitation link");
      await guest.goto(path);
      await expect(guest.getByRole("link", { name: t["team.invitation.createAccount"] })).toBeVisible();

      // With an account, they accept; the screens staff cannot use say so in their language.
      const registered = await guest.request.post("/api/register", {
        data: { username, password: PASSWORD, email: staffEmail },
      });
      expect(registered.ok(), await registered.text()).toBe(true);
      await guest.reload();
      await guest
        .getByRole("button", { name: fill(t["team.invitation.acceptAs"], { name: username }) })
        .click();
      await expect(guest).toHaveURL(/\/merchant$/);
      for (const [where, sentence] of [
        ["/team", t["team.roleNotice.manageTeam"]],
        ["/audit-log", t["team.roleNotice.seeAuditLog"]],
      ] as const) {
        await guest.goto(where);
        await expect(guest.getByTestId("role-notice")).toContainText(sentence as string);
        await check(guest, `the role notice of ${where}`);
      }
      await other.close();

      // The owner sees the new member and a pending invitation, and removes the member after confirming.
      await page.reload();
      const member = page.getByTestId("team-member").filter({ hasText: username });
      await expect(member).toContainText(t["team.role.staff"] as string);
      await expect(page.getByTestId("team-invitation").filter({ hasText: adminEmail })).toContainText(
        t["team.role.admin"] as string,
      );
      await member
        .getByRole("button", { name: fill(t["team.member.removeLabel"], { name: username }) })
        .click();
      await expect(member.getByRole("alert")).toContainText(
        fill(t["team.member.confirmRemove"], { name: username, business: BUSINESS }),
      );
      await check(page, "the team page, confirming a removal");
      await page.screenshot({ path: test.info().outputPath(`team-${locale}.png`), fullPage: true });
      await member
        .getByRole("button", { name: fill(t["team.member.yesRemove"], { name: username }) })
        .click();
      await expect(toast(page, fill(t["team.member.removed"], { name: username }))).toBeVisible();
      await expect(page.getByTestId("team-member")).toHaveCount(1);

      // The audit log names each step, and filters by its names.
      await page.goto("/audit-log");
      const log = page.getByRole("list", { name: t["team.audit.eventsLabel"] });
      await expect(log.getByRole("listitem").first()).toContainText(
        t["team.auditAction.member_removed"] as string,
      );
      await expect(log).toContainText(t["team.auditAction.member_joined"] as string);
      await expect(log).toContainText(t["team.audit.method.register"] as string);
      await check(page, "the audit log");
      await page.screenshot({ path: test.info().outputPath(`audit-log-${locale}.png`), fullPage: true });
      await page
        .getByLabel(t["team.audit.action"] as string)
        .selectOption({ label: t["team.auditAction.member_invited"] as string });
      await expect(log.getByRole("listitem")).toHaveCount(2);
      await check(page, "the filtered audit log");
    });
  });
}
