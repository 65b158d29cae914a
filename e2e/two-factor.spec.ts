import { createHmac } from "node:crypto";
import type { Page } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { expect, test, toast } from "./fixtures";

const PASSWORD = "correct horse battery staple";
let counter = 0;
const uniqueName = (prefix: string) => `${prefix}_${Date.now().toString(36)}${counter++}`;
const shots = process.env.SCREENSHOTS_DIR;

/** RFC 6238 as an authenticator app computes it: HMAC-SHA-1, 30 s, 6 digits. */
function totp(secretBase32: string, atMs: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secretBase32.replace(/\s/g, ""))
    bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => Number.parseInt(b, 2)));
  const counterBytes = Buffer.alloc(8);
  counterBytes.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = createHmac("sha1", key).update(counterBytes).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

async function register(page: Page, username: string) {
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Register" }).click();
  const form = page.getByRole("form", { name: "Register" });
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await form.getByLabel("Confirm password").fill(PASSWORD);
  await form.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/merchant$/);
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Sign out" }).click();
  await expect(toast(page, "Logout successful")).toBeVisible();
}

async function signInWithPassword(page: Page, username: string) {
  await page.goto("/auth");
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Username or email").fill(username);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByRole("button", { name: "Sign in" }).click();
}

async function shot(page: Page, name: string) {
  if (!shots) return;
  for (const theme of ["dark", "light"] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.remove("dark", "light");
      document.documentElement.classList.add(t);
    }, theme);
    await page.screenshot({
      path: `${shots}/${name}-${page.viewportSize()!.width}-${theme}.png`,
      fullPage: true,
    });
  }
  await page.evaluate(() => {
    document.documentElement.classList.remove("light");
    document.documentElement.classList.add("dark");
  });
}

for (const width of shots ? [390, 1280] : [1280]) {
  test(`authenticator app: enrol, sign out, sign in with the code; the audit log shows it (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    const username = uniqueName("totp");
    await register(page, username);

    await page.goto("/profile");
    const section = page.getByRole("region", { name: "Two-factor sign-in" });
    await expect(section.getByText("Off.")).toBeVisible();
    await section.getByRole("button", { name: "Set up authenticator app" }).click();
    await expect(
      section.getByRole("img", { name: "QR code to scan with your authenticator app" }),
    ).toBeVisible();
    const secret = ((await section.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shot(page, "2fa-enrol");
    await section.getByLabel("Code from the app").fill(totp(secret, Date.now()));
    await section.getByRole("button", { name: "Turn on" }).click();
    const codes = section.getByRole("list", { name: "Recovery codes" });
    await expect(codes.getByRole("listitem")).toHaveCount(10);
    await expect(toast(page, "Two-factor sign-in is on")).toBeVisible();
    await shot(page, "2fa-recovery-codes");
    await section.getByRole("button", { name: "I have saved them" }).click();
    await expect(codes).toBeHidden();
    await expect(section.getByText("On", { exact: true })).toBeVisible();

    await signOut(page);
    await signInWithPassword(page, username);
    const step = page.getByRole("region", { name: "Two-factor sign-in" });
    await expect(step.getByText("Enter the 6-digit code from your authenticator app.")).toBeVisible();
    await shot(page, "2fa-code-step");
    // A wrong code is refused and says so.
    await step.getByLabel("Authentication code").fill(totp(secret, Date.now() - 5 * 60_000));
    await step.getByRole("button", { name: "Verify and sign in" }).click();
    await expect(toast(page, "Login failed")).toContainText("not correct");
    // The code of the next step: the current one was spent by the enrolment.
    await step.getByLabel("Authentication code").fill(totp(secret, Date.now() + 30_000));
    await step.getByRole("button", { name: "Verify and sign in" }).click();
    await expect(toast(page, "Login successful")).toBeVisible();
    await expect(page).toHaveURL(/\/merchant$/);

    await page.goto("/audit-log");
    const log = page.getByRole("list", { name: "Audit events" });
    await expect(log.getByRole("listitem").first()).toContainText("Signed in");
    await expect(log).toContainText("Two-factor sign-in turned on");
    await expect(log).toContainText("Failed sign-in");
    await expect(log).toContainText("Signed out");
    await page.getByLabel("Action").selectOption({ label: "Failed sign-in" });
    await expect(log.getByRole("listitem")).toHaveCount(1);
    await expect(log).toContainText("wrong code");
    await page.getByLabel("Action").selectOption({ label: "All actions" });
    await expect(log).toContainText("Two-factor sign-in turned on");
    await shot(page, "2fa-audit-log");
  });
}

test("passkeys with Chromium's virtual authenticator: add one, sign out, sign in with it", async ({
  page,
}) => {
  // WebAuthn refuses IP addresses: the same server by its name (decision 019).
  const origin = baseURL.replace("127.0.0.1", "localhost");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  const username = uniqueName("passkey");
  await page.goto(`${origin}/auth`);
  await page.getByRole("tab", { name: "Register" }).click();
  const form = page.getByRole("form", { name: "Register" });
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await form.getByLabel("Confirm password").fill(PASSWORD);
  await form.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/merchant$/);

  await page.goto(`${origin}/profile`);
  const section = page.getByRole("region", { name: "Two-factor sign-in" });
  await section.getByLabel("Passkey name").fill("Test laptop");
  await section.getByRole("button", { name: "Add a passkey" }).click();
  await expect(toast(page, "Passkey added")).toBeVisible();
  await expect(section.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await section.getByRole("button", { name: "I have saved them" }).click();
  await expect(section.getByRole("list", { name: "Your passkeys" })).toContainText("Test laptop");

  // With a passkey, the password alone is not enough: the code step offers the passkey.
  await signOut(page);
  await page.goto(`${origin}/auth`);
  const signIn = page.getByRole("form", { name: "Sign in" });
  await signIn.getByLabel("Username or email").fill(username);
  await signIn.getByLabel("Password").fill(PASSWORD);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  const step = page.getByRole("region", { name: "Two-factor sign-in" });
  await expect(step.getByText("Confirm it is you with your passkey.")).toBeVisible();
  await step.getByRole("button", { name: "Use a passkey" }).click();
  await expect(toast(page, "Login successful")).toBeVisible();
  await expect(page).toHaveURL(/\/merchant$/);

  // Password-less: the passkey alone signs in.
  await signOut(page);
  await page.goto(`${origin}/auth`);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(toast(page, "Login successful")).toBeVisible();
  await expect(page).toHaveURL(/\/merchant$/);

  await page.goto(`${origin}/audit-log`);
  const log = page.getByRole("list", { name: "Audit events" });
  await expect(log).toContainText("Passkey added");
  await expect(log.getByRole("listitem").first()).toContainText("with passkey");
});

for (const width of [390, 1280]) {
  test(`the setup key copies with one tap, and the code field's label is in the app's font (${width} px)`, async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    await register(page, uniqueName("copy"));
    await page.goto("/profile");
    const section = page.getByRole("region", { name: "Two-factor sign-in" });
    await section.getByRole("button", { name: "Set up authenticator app" }).click();
    const secret = ((await section.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    await section.getByRole("button", { name: "Copy Setup key" }).click();
    await expect(toast(page, "Setup key copied")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // The label reads like every other label; only the digits typed are monospace.
    const fontOf = (selector: string) =>
      page.evaluate((s) => getComputedStyle(document.querySelector(s)!).fontFamily, selector);
    const label = section.getByText("Code from the app", { exact: true });
    const labelFont = await label.evaluate((el) => getComputedStyle(el).fontFamily);
    expect(labelFont).toBe(await fontOf("body"));
    const inputFont = await section
      .getByLabel("Code from the app")
      .evaluate((el) => getComputedStyle(el).fontFamily);
    expect(inputFont).not.toBe(labelFont);
    await shot(page, "2fa-setup-key");
  });
}
