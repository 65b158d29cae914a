import type { Page } from "@playwright/test";
import { expect, test, toast } from "./fixtures";
import { waitForMail } from "./support/mailbox";
import { type OwnServer, startOwnServer } from "./support/own-server";

const PASSWORD = "correct horse battery staple";
let counter = 0;
const uniqueName = (prefix: string) => `${prefix}_${Date.now().toString(36)}${counter++}`;

async function registerThroughForm(page: Page, username: string, email = "") {
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Register" }).click();
  const form = page.getByRole("form", { name: "Register" });
  await form.getByLabel("Username").fill(username);
  if (email) await form.getByLabel("Email (optional)").fill(email);
  await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await form.getByLabel("Confirm password").fill(PASSWORD);
  await form.getByRole("button", { name: "Create account" }).click();
}

async function openMenu(page: Page) {
  await page.getByRole("button", { name: "Open menu" }).click();
  return page.getByRole("dialog");
}

test.describe("accounts", () => {
  test("register -> dashboard -> menu shows the user -> sign out -> home", async ({ page }) => {
    const username = uniqueName("merchant");
    await registerThroughForm(page, username);
    await expect(toast(page, "Registration successful")).toContainText(
      "Your account has been created and you are now logged in",
    );
    await expect(page).toHaveURL(/\/merchant$/);

    const menu = await openMenu(page);
    await expect(menu.getByText("Signed in as")).toBeVisible();
    await expect(menu.getByText(username)).toBeVisible();
    await expect(menu.getByRole("link", { name: "My Profile" })).toBeVisible();
    await menu.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page, "Logout successful")).toContainText("You have been logged out");
    await expect(page.getByRole("dialog")).toBeHidden();
    // Really signed out: the protected page sends us to sign in.
    await page.goto("/merchant");
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("sign in with the form, then the session survives a reload", async ({ page, request }) => {
    const username = uniqueName("returning");
    const created = await request.post("/api/register", { data: { username, password: PASSWORD } });
    expect(created.status()).toBe(201);
    await page.goto("/auth");
    const form = page.getByRole("form", { name: "Sign in" });
    await form.getByLabel("Username or email").fill(username);
    await form.getByLabel("Password").fill(PASSWORD);
    await form.getByRole("button", { name: "Sign in" }).click();
    await expect(toast(page, "Login successful")).toContainText("You are now logged in");
    await expect(page).toHaveURL(/\/merchant$/);
    await page.reload();
    await expect(page).toHaveURL(/\/merchant$/);
    const menu = await openMenu(page);
    await expect(menu.getByText(username)).toBeVisible();
  });

  test("a failed sign-in shows 'Login failed' with the server's words, and the form says it too", async ({
    page,
  }) => {
    await page.goto("/auth");
    const form = page.getByRole("form", { name: "Sign in" });
    await form.getByLabel("Username or email").fill(uniqueName("nobody"));
    await form.getByLabel("Password").fill("not the right password");
    await form.getByRole("button", { name: "Sign in" }).click();
    const failure = toast(page, "Login failed");
    await expect(failure).toBeVisible();
    // The toast keeps its title; its text is the server's sentence alone (no "401:").
    await expect(failure).toContainText("Incorrect username or password.");
    await expect(failure).not.toContainText("401");
    // The form says it too, where the eye is.
    await expect(form.getByRole("alert")).toHaveText("Incorrect username or password.");
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("the forms explain invalid fields before sending anything", async ({ page }) => {
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Register" }).click();
    const form = page.getByRole("form", { name: "Register" });
    await form.getByLabel("Username").fill("a b");
    await form.getByLabel("Password", { exact: true }).fill("short");
    await form.getByLabel("Confirm password").fill("different");
    await form.getByRole("button", { name: "Create account" }).click();
    await expect(form.getByText("Username may contain only letters, digits, '_', '.' and '-'")).toBeVisible();
    await expect(form.getByText("Password must be at least 10 characters")).toBeVisible();
    await expect(form.getByText("The passwords do not match")).toBeVisible();
    await expect(form.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");
  });

  test("a taken username shows 'Registration failed' with the reason", async ({
    page,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(/status of 409/);
    const username = uniqueName("taken");
    await request.post("/api/register", { data: { username, password: PASSWORD } });
    await page.context().clearCookies();
    await registerThroughForm(page, username);
    await expect(toast(page, "Registration failed")).toContainText("That username is already taken");
  });

  test("forgot and reset the password through the emailed links", async ({ page }) => {
    const username = uniqueName("forgetful");
    const email = `${username}@example.test`;
    await registerThroughForm(page, username, email);
    await expect(page).toHaveURL(/\/merchant$/);

    // Confirm the email from the verification message.
    const verifyLink = await waitForMail(email, /(http:\/\/\S+\/api\/verify-email\?token=[A-Za-z0-9_-]+)/);
    await page.goto(verifyLink);
    await expect(page).toHaveURL(/\/profile$/);
    await expect(toast(page, "Email confirmed")).toContainText(
      "Payment notifications and password resets go there now.",
    );
    await expect(page.getByText(`Confirmed: ${email}`)).toBeVisible();

    // Sign out, forget, reset.
    const menu = await openMenu(page);
    await menu.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/auth");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByText("Check your inbox")).toBeVisible();

    const resetLink = await waitForMail(email, /(http:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+)/);
    await page.goto(resetLink);
    const newPassword = "a fresh and long passphrase";
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm new password").fill(newPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page).toHaveURL(/\/merchant$/);

    // The link works once.
    await page.goto(resetLink);
    await expect(page.getByText("This link has already been used")).toBeVisible();

    // The new password signs in; the old one does not.
    const api = page.request;
    expect((await api.post("/api/login", { data: { username, password: PASSWORD } })).status()).toBe(401);
    expect((await api.post("/api/login", { data: { username, password: newPassword } })).status()).toBe(200);
  });

  test("an invalid reset link is explained", async ({ page }) => {
    await page.goto(`/reset-password?token=${"x".repeat(43)}`);
    await expect(page.getByText("This reset link cannot be used")).toBeVisible();
    await expect(page.getByRole("link", { name: "Request a new link" })).toBeVisible();
  });

  test("the profile lists this device's session and changes preferences", async ({ page }) => {
    await registerThroughForm(page, uniqueName("profile"));
    await expect(page).toHaveURL(/\/merchant$/);
    await page.goto("/profile");
    await expect(page.getByRole("heading", { name: "My Profile" })).toBeVisible();
    await expect(page.getByText("This device")).toBeVisible();
    await page.getByRole("button", { name: "Light", exact: true }).click();
    await expect(page.locator("html")).toHaveClass(/light/);
    await expect(toast(page, "Preferences saved")).toBeVisible();
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
    // Asked first; Cancel keeps the session.
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page.getByRole("button", { name: "Yes, sign out everywhere" })).toBeFocused();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("button", { name: "Sign out everywhere" })).toBeFocused();
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.getByRole("button", { name: "Yes, sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/merchant");
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test.describe("a session and a server restart", () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startOwnServer();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("survives the restart", async ({ page, consoleGuard }) => {
    test.setTimeout(120_000);
    // While the server is down the page's live connection fails and the browser says so; that is expected here.
    consoleGuard.allow(/WebSocket connection to .* failed|ERR_CONNECTION_REFUSED|net::ERR_/);
    const username = uniqueName("durable");
    await page.goto(`${server.url}/auth`);
    await page.getByRole("tab", { name: "Register" }).click();
    const form = page.getByRole("form", { name: "Register" });
    await form.getByLabel("Username").fill(username);
    await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await form.getByLabel("Confirm password").fill(PASSWORD);
    await form.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/merchant$/);
    // The dashboard has loaded (its code and data) before the server goes away, as a person would have seen it.
    await expect(page.getByRole("heading", { name: "Register your business" })).toBeVisible();

    await server.restart();
    await page.goto(`${server.url}/merchant`);
    await expect(page).toHaveURL(/\/merchant$/);
    const menu = await openMenu(page);
    await expect(menu.getByText(username)).toBeVisible();
  });
});
