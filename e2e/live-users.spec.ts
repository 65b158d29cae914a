import { expect, test } from "./fixtures";
import { startOwnServer } from "./support/own-server";

// A server of its own: the shared e2e server's count includes every other test's pages.
test("live users: one per browser (its tabs count once), plural with two browsers, hidden while the server is down", async ({
  page,
  browser,
  consoleGuard,
}) => {
  test.setTimeout(300_000);
  // While the server is down the browser reports the failed socket and requests; that is the scenario.
  consoleGuard.allow(/WebSocket connection to .* failed|ERR_CONNECTION_REFUSED|Failed to fetch/);
  const server = await startOwnServer();
  try {
    await page.goto(`${server.url}/`);
    const widget = page.getByTestId("live-users");
    await expect(widget).toHaveText("1 user online");

    // A second tab of the same browser is the same person.
    const tab = await page.context().newPage();
    await tab.goto(`${server.url}/about`);
    await expect(tab.getByTestId("live-users")).toHaveText("1 user online");
    await tab.close();

    // Another browser (its own cookies) is another person.
    const other = await browser.newContext();
    const second = await other.newPage();
    await second.goto(`${server.url}/about`);
    await expect(second.getByTestId("live-users")).toHaveText("2 users online");
    await expect(widget).toHaveText("2 users online");

    await other.close();
    await expect(widget).toHaveText("1 user online");

    await server.stop();
    await expect(widget).toBeHidden();

    await server.restart();
    // Reconnects with backoff (at most 30 s between attempts) and shows the count again.
    await expect(widget).toHaveText("1 user online", { timeout: 60_000 });
  } finally {
    await server.stop();
  }
});
