import { expect, test } from "./fixtures";
import { startOwnServer } from "./support/own-server";

/** Evaluates the equation the overlay shows: integers, + - × ÷ and parentheses. */
function solve(equation: string): number {
  const tokens = equation.match(/\d+|[-+×÷()]/g) ?? [];
  let i = 0;
  const primary = (): number => {
    if (tokens[i] === "(") {
      i++;
      const v = sum();
      i++;
      return v;
    }
    return Number(tokens[i++]);
  };
  const product = (): number => {
    let v = primary();
    while (tokens[i] === "×" || tokens[i] === "÷") v = tokens[i++] === "×" ? v * primary() : v / primary();
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (tokens[i] === "+" || tokens[i] === "-") v = tokens[i++] === "+" ? v + product() : v - product();
    return v;
  };
  return sum();
}

// Its own server with a low limit, so the shared e2e server keeps limits sized for the whole suite.
test("over the limit: overlay, empty and wrong answers refused, right answer completes the action", async ({
  page,
  consoleGuard,
}) => {
  test.setTimeout(300_000);
  // 429 and 400 are the scenario; the socket error comes when the server stops before the page closes.
  consoleGuard.allow(/status of 429|status of 400|WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/);
  const server = await startOwnServer({ RATE_LIMIT_GENERAL: "40/60s", RATE_LIMIT_AUTH: "40/60s" });
  try {
    await page.goto(`${server.url}/auth`);
    await page.getByRole("tab", { name: "Register" }).click();
    const form = page.getByRole("form", { name: "Register" });
    const username = `chal${Date.now().toString(36)}`;
    await form.getByLabel("Username").fill(username);
    await form.getByLabel("Password", { exact: true }).fill("a long enough passphrase 42");
    await form.getByLabel("Confirm password").fill("a long enough passphrase 42");

    // Use up this client's window on the registration route (same address, same limiter as the form).
    for (let i = 0; i < 100; i++) {
      const res = await page.request.post(`${server.url}/api/register`, {
        data: {},
        headers: { origin: server.url },
      });
      if (res.status() === 429) break;
    }

    await form.getByRole("button", { name: /register|create/i }).click();
    const overlay = page.getByRole("dialog", { name: "Security Verification" });
    await expect(overlay).toBeVisible();
    await expect(overlay.getByText("Solve this equation:")).toBeVisible();
    await expect(overlay.getByText(/Security Level:\s*Easy/)).toBeVisible();
    await expect(
      page.getByText("Please solve the quick math problem to continue", { exact: true }),
    ).toBeVisible();
    const input = overlay.getByRole("spinbutton");
    await expect(input).toBeFocused();

    await overlay.getByRole("button", { name: "Submit Answer" }).click();
    await expect(overlay.getByRole("alert")).toHaveText("Please enter your answer");

    const first = (await overlay.getByTestId("challenge-equation").textContent()) ?? "";
    await input.fill(String(solve(first) + 1));
    await input.press("Enter");
    await expect(overlay.getByRole("alert")).toHaveText("Incorrect answer. Please try again.");
    // A fresh challenge replaces the spent one (one level up after a wrong answer).
    await expect(overlay.getByText(/Security Level:\s*Basic/)).toBeVisible();

    const second = (await overlay.getByTestId("challenge-equation").textContent()) ?? "";
    await input.fill(String(solve(second)));
    await overlay.getByRole("button", { name: "Submit Answer" }).click();
    await expect(overlay).toBeHidden();

    // The refused registration was sent again and completed: signed in, on to the dashboard.
    await expect(page).toHaveURL(/\/merchant$/, { timeout: 10_000 });
    const me = await page.request.get(`${server.url}/api/user`);
    expect((await me.json()).username).toBe(username);
  } finally {
    // The page goes first: requests it still makes while the server shuts down would answer 503.
    await page.close();
    await server.stop();
  }
});

test("the server-rendered pay page counts against the public read's limit, then the app asks for the check", async ({
  page,
  consoleGuard,
}) => {
  test.setTimeout(300_000);
  consoleGuard.allow(/status of 429|status of 404|WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/);
  const server = await startOwnServer({ RATE_LIMIT_PUBLIC: "3/60s" });
  try {
    const unknown = `${server.url}/pay/AAAAAAAAAAAAAAAAAAAAAA`;
    // Each rendering reads the database, so it uses the window of the payment read it stands for.
    for (let i = 0; i < 3; i++) {
      const res = await page.request.get(unknown);
      expect(res.status()).toBe(404);
      expect(await res.text()).toContain("Payment not found");
    }
    // Over the limit: the plain app, rendered nothing, no database read.
    const over = await page.request.get(unknown);
    expect(over.status()).toBe(200);
    expect(await over.text()).not.toContain("Payment not found");
    // The app's own read meets the limit, and the payer is asked to solve the check.
    await page.goto(unknown);
    const overlay = page.getByRole("dialog", { name: "Security Verification" });
    await expect(overlay).toBeVisible({ timeout: 30_000 });
    await expect(overlay.getByText("Solve this equation:")).toBeVisible();
  } finally {
    await page.close();
    await server.stop();
  }
});
