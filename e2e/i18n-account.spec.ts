import { getAddress, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { formatDecimal, numberShape } from "../common/src/locale-format";
import { LOCALE_NAMES } from "../common/src/locales";
import { expect as baseExpect, test, toast } from "./fixtures";
import { type Catalog, catalogOf, expectTranslated, fillIn, selectCase } from "./support/i18n";
import { createMerchant, payFromDevAccount } from "./support/payments";
import { continueOnDevPage } from "./support/social";
import { installWallet } from "./support/wallet";

/**
 * Signing in and the account in their reader's language (issue 37), at a phone's width, in Arabic (right to left)
 * and Brazilian Portuguese: the sign-in form and a real refused sign-in, registration with the form's own checks,
 * the forgotten-password request, and the profile with its two-factor section and an authenticator set-up. On each
 * screen: no English word of the account's, the sign-in buttons', the checkout's or the shell's catalogs in the page
 * (its header and footer too), no sideways scroll, axe clean, <html lang dir> right.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
const AREAS = ["account", "wallet", "pay", "shell", "site"] as const;
const BUSINESS = "Corner Coffee";
// Names that are never translated: the providers of the social sign-in, the authenticator apps, the chain.
const NAMES =
  "CPXTB Pay Google Facebook Apple X GitHub Discord Authenticator Microsoft Authy Password Ethereum Chrome Linux Android Windows";

const unique = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

for (const locale of ["ar", "pt-BR"] as const) {
  test.describe(`in ${LOCALE_NAMES[locale]}`, () => {
    const viewport = { width: 390, height: 844 };
    test.use({ locale, viewport });

    test(`${locale}: sign in, register and forgot password, with no English left`, async ({ page }) => {
      test.setTimeout(180_000);
      const t: Catalog = catalogOf(locale, AREAS);
      const nobody = unique("nobody");
      const allowed = `${NAMES} ${nobody}`;
      const check = (where: string) =>
        expectTranslated(page, locale, where, { areas: AREAS, allowed, root: "body" });

      await page.goto("/auth");
      await expect(page.getByRole("heading", { level: 1, name: t["account.auth.title"] })).toBeVisible({
        timeout: 60_000,
      });
      const signIn = page.getByRole("form", { name: t["account.login.formLabel"] });
      await expect(signIn.getByRole("button", { name: t["account.login.submit"] })).toBeVisible();
      // The tabs' forms follow the reader's direction (Radix writes its own `dir`).
      await expect(signIn).toHaveCSS("direction", locale === "ar" ? "rtl" : "ltr");
      await expect(page.getByRole("button", { name: t["account.wallet.signIn"] })).toBeVisible();
      await expect(page.getByRole("button", { name: t["account.passkey.signIn"] })).toBeVisible();
      await check("the sign-in form");
      await page.screenshot({ path: test.info().outputPath(`auth-${locale}.png`), fullPage: true });

      // A real sign-in the server refuses: its sentence in the reader's words, in the form and in the toast.
      await signIn.getByLabel(t["account.login.username"] as string).fill(nobody);
      await signIn
        .getByLabel(t["account.login.password"] as string, { exact: true })
        .fill("not the right one");
      await signIn.getByRole("button", { name: t["account.login.submit"] }).click();
      await expect(signIn.getByRole("alert")).toHaveText(t["account.error.wrongCredentials"] as string);
      await expect(toast(page, t["account.toast.signInFailed"] as string)).toContainText(
        t["account.error.wrongCredentials"] as string,
      );
      await check("the refused sign-in");

      // Registration: the form's own checks (the schemas the server shares) in the reader's words.
      await page.getByRole("tab", { name: t["account.auth.registerTab"] }).click();
      const register = page.getByRole("form", { name: t["account.register.formLabel"] });
      await register.getByLabel(t["account.register.username"] as string).fill("ab");
      await register.getByLabel(t["account.register.password"] as string, { exact: true }).fill("short");
      await register.getByLabel(t["account.register.confirm"] as string).fill("other");
      await register.getByRole("button", { name: t["account.register.submit"] }).click();
      await expect(register.getByText(t["account.error.usernameShort"] as string)).toBeVisible();
      await expect(register.getByText(t["account.password.mismatch"] as string)).toBeVisible();
      await check("the registration form with its checks");
      await page.screenshot({ path: test.info().outputPath(`register-${locale}.png`), fullPage: true });

      // Forgotten password, from the sign-in form's link.
      await page.getByRole("tab", { name: t["account.auth.signInTab"] }).click();
      await page.getByRole("link", { name: t["account.login.forgot"] }).click();
      await expect(page.getByRole("heading", { level: 1, name: t["account.forgot.title"] })).toBeVisible();
      await check("the forgotten-password form");
      await page.getByLabel(t["account.forgot.email"] as string).fill(`${nobody}@example.com`);
      await page.getByRole("button", { name: t["account.forgot.submit"] }).click();
      await expect(
        page.getByRole("status").getByText(t["account.forgot.checkInbox"] as string),
      ).toBeVisible();
      await expect(page.getByText(t["account.forgot.sent"] as string)).toBeVisible();
      await check("the forgotten-password answer");

      // A reset link cut short when it was copied: the page says the link is not valid, in the reader's words.
      await page.goto("/reset-password?token=abc");
      await expect(page.getByRole("alert")).toContainText(t["account.reset.unknown"] as string);
      await check("a cut-short reset link");
    });

    test(`${locale}: the profile and its two-factor section, with no English left`, async ({
      page,
      consoleGuard,
    }) => {
      test.setTimeout(180_000);
      // The wrong code below is refused (400), which Chromium logs.
      consoleGuard.allow(/status of 400 .*\/api\/user\/two-factor\/totp\/confirm/);
      const t: Catalog = catalogOf(locale, AREAS);
      const owner = await createMerchant(page.request, { name: BUSINESS });
      // The test's data, and what is never translated: the receiving wallet's address, the set-up key.
      let allowed = `${NAMES} ${BUSINESS} ${owner.username} ${owner.address}`;
      const check = (where: string) =>
        expectTranslated(page, locale, where, { areas: AREAS, allowed, root: "body" });

      await page.goto("/profile");
      await expect(page.getByRole("heading", { level: 1, name: t["account.profile.title"] })).toBeVisible({
        timeout: 60_000,
      });
      const twoFactor = page.getByRole("region", { name: t["account.twoFactor.title"] });
      await expect(twoFactor.getByText(t["account.twoFactor.off"] as string)).toBeVisible();
      await expect(page.getByText(t["account.sessions.thisDevice"] as string)).toBeVisible();
      await expect(page.getByTestId("receiving-wallet")).toContainText(BUSINESS);
      await check("the profile");
      await page.screenshot({ path: test.info().outputPath(`profile-${locale}.png`), fullPage: true });

      // Setting up the authenticator app: the steps, the QR code and the key, in the reader's words.
      await twoFactor.getByRole("button", { name: t["account.twoFactor.setUp"] }).click();
      await expect(twoFactor.getByRole("heading", { name: t["account.totp.title"] })).toBeVisible();
      await expect(twoFactor.getByRole("img", { name: t["account.qr.label"] })).toBeVisible();
      await expect(twoFactor.getByTestId("totp-secret")).toBeVisible();
      allowed += ` ${await twoFactor.getByTestId("totp-secret").textContent()}`;
      // A wrong code: the server's refusal in the reader's words, under the field.
      await twoFactor.getByLabel(t["account.totp.code"] as string).fill("000000");
      await twoFactor.getByRole("button", { name: t["account.totp.turnOn"] }).click();
      await expect(twoFactor.getByText(t["account.error.codeWrongTime"] as string)).toBeVisible();
      await check("the authenticator set-up");
      await page.screenshot({ path: test.info().outputPath(`two-factor-${locale}.png`), fullPage: true });
      // The language menu of the Preferences: the page changes at once, and the choice holds after a reload.
      if (locale === "pt-BR") {
        const es: Catalog = catalogOf("es", AREAS);
        await page.getByTestId("language-menu").selectOption("es");
        await expect(
          page.getByRole("heading", { level: 1, name: es["account.profile.title"] }),
        ).toBeVisible();
        await page.reload();
        await expect(page.getByRole("heading", { level: 1, name: es["account.profile.title"] })).toBeVisible({
          timeout: 60_000,
        });
        await expect(page.locator("html")).toHaveAttribute("lang", "es");
      }
      if (locale === "ar") {
        // The same screen in the light theme (the app starts dark).
        // Exact: the header's theme toggle ("Switch to light theme") holds the same word.
        await page.getByRole("button", { name: t["account.preferences.light"], exact: true }).click();
        await expect(
          page.getByRole("button", { name: t["account.preferences.light"], exact: true }),
        ).toHaveAttribute("aria-pressed", "true");
        await expect(toast(page, t["account.preferences.saved"] as string)).toBeVisible();
        await page.screenshot({
          path: test.info().outputPath(`two-factor-${locale}-light.png`),
          fullPage: true,
        });
      }
    });
  });
}

/**
 * A social sign-in's account in Arabic and German at a phone's width (issue 37): the signed-in card on /auth, and
 * the profile's managed wallet (balance, daily limit, the withdraw form with its own checks, a withdrawal and its
 * row in the list) with no English word of the catalogs in `main`, amounts in the locale's format, light and dark.
 */
for (const locale of ["ar", "de"] as const) {
  test.describe(`a social sign-in in ${LOCALE_NAMES[locale]}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });
    test(`${locale}: a social sign-in's card and the profile's managed wallet, with no English left`, async ({
      page,
      consoleGuard,
    }) => {
      test.setTimeout(240_000);
      const t: Catalog = catalogOf(locale, AREAS);
      const amount = (decimal: string) =>
        `${formatDecimal(decimal, numberShape(locale), { maxDecimals: 6 })} CPXTB`;
      const person = locale === "ar" ? "Noor Haddad" : "Jana Krüger";
      const email = `${unique("social")}@example.com`;
      let allowed = `${NAMES} Base ${person} ${email}`;
      const check = (where: string) =>
        expectTranslated(page, locale, where, { areas: AREAS, allowed, root: "main" });

      await page.goto("/auth");
      await page
        .getByRole("button", {
          name: fillIn(t["wallet.signIn.continueWith"]!, { provider: "Google" }),
          exact: true,
        })
        .click({ timeout: 60_000 });
      await continueOnDevPage(page, person, email, /\/auth$/);
      const card = page.getByTestId("social-account");
      await expect(card).toContainText(fillIn(t["wallet.card.name"]!, { name: person, provider: "Google" }), {
        timeout: 30_000,
      });
      const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem("cpxtb_social_user")!));
      const address = getAddress(stored.walletAddress);
      allowed += ` ${address}`;
      // Tokens arrive: the card shows the chain's balance, written the locale's way.
      await payFromDevAccount(page.request, address, parseUnits("1234.5", 18));
      await expect(card.getByTestId("social-balance")).toHaveText(amount("1234.5"), { timeout: 45_000 });
      await expect(card.getByRole("button", { name: t["account.sessions.signOut"] })).toBeVisible();
      await check("the signed-in social account card");

      await page.goto("/profile");
      const section = page.getByTestId("managed-wallet-section");
      await expect(section.getByRole("heading", { name: t["wallet.profile.title"] })).toBeVisible({
        timeout: 60_000,
      });
      await expect(section.getByTestId("managed-wallet-balance")).toHaveText(amount("1234.5"));
      await expect(section.getByTestId("managed-wallet-address")).toHaveText(address);
      await expect(section.getByText(t["wallet.sends.none"]!)).toBeVisible();
      await expect(page.getByTestId("social-accounts-section")).toContainText(email);
      await check("the profile's managed wallet");

      // Unlinking the only way in is refused (409): the server's sentence names the provider, and the reader gets
      // it in their words from the answer's details, the provider's name kept.
      consoleGuard.allow(/status of 409/);
      await page
        .getByRole("button", { name: fillIn(t["account.social.unlinkLabel"]!, { provider: "Google" }) })
        .click();
      const refused = toast(page, t["account.social.notUnlinked"]!);
      await expect(refused).toContainText(
        fillIn(t["account.social.error.lastWayIn"]!, { provider: "Google" }),
      );
      await page.screenshot({ path: test.info().outputPath(`profile-unlink-refused-${locale}-390.png`) });
      await refused.getByRole("button").first().click();
      await expect(refused).toHaveCount(0);

      // The form's own checks, in the reader's words.
      const withdraw = section.getByRole("button", { name: t["wallet.profile.withdraw"], exact: true });
      await withdraw.click();
      await expect(section.getByText(t["wallet.profile.toRequired"]!)).toBeVisible();
      await expect(section.getByText(t["wallet.profile.amountRequired"]!)).toBeVisible();
      await check("the withdraw form's checks");

      // A withdrawal: the toast, and its row in the list with its state, date and transaction.
      const external = privateKeyToAccount(generatePrivateKey()).address;
      allowed += ` ${external}`;
      await section.getByLabel(t["wallet.profile.to"]!).fill(external);
      await section.getByLabel(fillIn(t["wallet.profile.amount"]!, { symbol: "CPXTB" })).fill("7.5");
      await withdraw.click();
      await expect(toast(page, t["wallet.profile.withdrawSent"]!)).toBeVisible({ timeout: 60_000 });
      const row = section.getByTestId("wallet-send").first();
      await expect(row).toContainText(`${t["wallet.sends.withdrawal"]} ${amount("7.5")}`, {
        timeout: 30_000,
      });
      await expect(row.getByTestId("wallet-send-state")).toHaveText(
        selectCase(t["wallet.sends.state"]!, "confirmed"),
        {
          timeout: 45_000,
        },
      );
      await expect(section.getByTestId("managed-wallet-balance")).toHaveText(amount("1227"), {
        timeout: 45_000,
      });
      allowed += ` ${(await row.textContent())?.match(/0x[0-9a-f]{64}/)?.[0] ?? ""}`;
      await check("the profile after a withdrawal");

      for (const theme of ["light", "dark"] as const) {
        await page.evaluate((value) => window.localStorage.setItem("cpxtb-pay-theme", value), theme);
        await page.reload();
        await expect(section.getByTestId("wallet-send")).not.toHaveCount(0, { timeout: 60_000 });
        await page.screenshot({
          path: test.info().outputPath(`profile-managed-wallet-${locale}-390-${theme}.png`),
          fullPage: true,
        });
        await section.screenshot({
          path: test.info().outputPath(`managed-wallet-${locale}-390-${theme}.png`),
        });
      }
      await page.goto("/auth");
      await expect(card).toBeVisible({ timeout: 60_000 });
      await page.screenshot({
        path: test.info().outputPath(`auth-social-card-${locale}-390.png`),
        fullPage: true,
      });

      // The social sign-in test page: its words, and the session's toast when signing out, in the reader's language.
      await page.goto("/social-login-test");
      await expect(page.getByRole("heading", { level: 1, name: t["account.socialTest.title"] })).toBeVisible({
        timeout: 60_000,
      });
      const google = page.getByTestId("provider-google");
      await expect(google).toContainText(t["account.socialTest.mode.development"]!);
      await expect(google.getByRole("button", { name: t["account.socialTest.redirect"] })).toBeVisible();
      allowed += " POST /api/social-auth/google";
      await check("the social sign-in test page");
      // The request stays as written, left to right, inside the reader's words (the JSON answer is not checked:
      // its keys are the API's).
      await google.getByRole("button", { name: /POST \/api\/social-auth\/google/ }).click();
      await expect(page.getByTestId("social-result")).toContainText(`"email": "${email}"`);
      await expect(
        page.getByRole("heading", { name: fillIn(t["account.socialTest.answer"]!, { provider: "google" }) }),
      ).toBeVisible();
      await page.screenshot({
        path: test.info().outputPath(`social-login-test-${locale}-390.png`),
        fullPage: true,
      });
      await card.getByRole("button", { name: t["account.sessions.signOut"] }).click();
      await expect(toast(page, t["wallet.toast.signedOut"]!)).toContainText(t["wallet.toast.signedOutText"]!);
    });
  });
}

test("pt-BR at a desktop's width: the sign-in page", async ({ browser }) => {
  const context = await browser.newContext({ locale: "pt-BR", viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const t: Catalog = catalogOf("pt-BR", AREAS);
  await page.goto("/auth");
  await expect(page.getByRole("heading", { level: 1, name: t["account.auth.title"] })).toBeVisible({
    timeout: 60_000,
  });
  await expectTranslated(page, "pt-BR", "the sign-in page on a desktop", {
    areas: AREAS,
    allowed: NAMES,
    root: "body",
  });
  await page.screenshot({ path: test.info().outputPath("auth-pt-BR-desktop.png"), fullPage: true });
  await context.close();
});

test("ar: a browser wallet's refused signature and the basic login window's end, in Arabic", async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ locale: "ar", viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const t: Catalog = catalogOf("ar", AREAS);
  await installWallet(page, request, { rejectSignatures: true });
  await page.goto("/auth");
  const walletButton = page.getByRole("button", { name: t["account.wallet.signIn"] });
  await expect(walletButton).toBeVisible({ timeout: 60_000 });
  await walletButton.click();
  await expect(toast(page, t["account.toast.signInFailed"]!)).toContainText(
    t["pay.wallet.rejectedSignature"]!,
  );
  await expect(walletButton).toBeEnabled();
  // The page's description (index.html's, for a page the browser renders) in the reader's language too.
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    "content",
    t["site.meta.description"]!,
  );
  await expectTranslated(page, "ar", "the sign-in page after a refused signature", {
    areas: AREAS,
    allowed: NAMES,
    root: "body",
  });

  // Opened by hand (not by the sign-in's script), the window's end stays open and says what happened.
  await page.goto("/auth/social-complete?provider=google");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByText("اكتمل تسجيل الدخول. يمكنك إغلاق هذه النافذة الآن.")).toBeVisible();
  await context.close();
});
