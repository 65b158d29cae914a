import { expect, test } from "./fixtures";
import { waitForMail } from "./support/mailbox";

const meta = (page: import("@playwright/test").Page, key: string) =>
  page.locator(`meta[property="${key}"], meta[name="${key}"]`).getAttribute("content");

test("public pages render their content and link to each other", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("price-value")).toHaveText(/^\$\d/);
  await expect(page).toHaveTitle("Accept CPXTB payments · CPXTB Pay");

  const pages: [string, RegExp, RegExp][] = [
    ["/about", /About CPXTB Pay/, /From a sale to a confirmed payment/],
    ["/about-us", /About Us/, /The principles we build by/],
    ["/privacy-policy", /Privacy Policy/, /Cookies and local storage/],
    ["/terms-of-service", /Terms of Service/, /Limitation of liability/],
    ["/legal-documents", /Legal Documents/, /Merchant Agreement/],
  ];
  for (const [path, title, section] of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.getByRole("heading", { name: section }).first()).toBeVisible();
    expect(await meta(page, "og:url")).toMatch(new RegExp(`${path}$`));
  }
  await expect(page.getByText(/Last updated:/)).toBeVisible();

  // Links between the pages navigate inside the app.
  await page.goto("/about-us");
  await page.getByRole("link", { name: "About the platform" }).click();
  await expect(page).toHaveURL(/\/about$/);
  await page.getByRole("link", { name: "About the team" }).click();
  await expect(page).toHaveURL(/\/about-us$/);
  await page.getByRole("link", { name: "Contact the team" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Contact Us" })).toBeVisible();
  await page.getByRole("link", { name: /privacy policy/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await expect(page).toHaveTitle("Privacy Policy · CPXTB Pay");
});

test("blog list, a post by slug with its tags, and reading on", async ({ page }) => {
  await page.goto("/blog");
  const cards = page.getByRole("article");
  await expect(cards).toHaveCount(6);
  await expect(cards.first()).toContainText("min read");
  await page.getByRole("link", { name: "Block confirmations and why they matter" }).click();
  await expect(page).toHaveURL(/\/blog\/confirmations-and-why-they-matter$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Block confirmations and why they matter");
  await expect(page.getByRole("heading", { name: "How this works on Base" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Tags" })).toContainText("blockchain");
  await expect(page).toHaveTitle("Block confirmations and why they matter · CPXTB Pay");
  expect(await meta(page, "og:type")).toBe("article");

  await page.getByRole("link", { name: /Next article/ }).click();
  await expect(page).toHaveURL(/\/blog\/crypto-payment-fees-compared-with-cards$/);
  await page.getByRole("link", { name: /Previous article/ }).click();
  await expect(page).toHaveURL(/\/blog\/confirmations-and-why-they-matter$/);
  await page.getByRole("link", { name: "All articles" }).click();
  await expect(page).toHaveURL(/\/blog$/);

  // A post opened directly: the server already put its tags into the HTML.
  const response = await page.request.get("/blog/security-checklist-for-merchants");
  expect(await response.text()).toContain(
    '<meta property="og:title" content="A security checklist for merchants accepting crypto · CPXTB Pay" />',
  );
});

test("an unknown slug shows the not-found state", async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 404/);
  await page.goto("/blog/there-is-no-such-post");
  await expect(page.getByTestId("post-not-found")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Article not found" })).toBeVisible();
  await page.getByRole("link", { name: "Browse all articles" }).click();
  await expect(page.getByRole("article")).toHaveCount(6);
});

test("contact: validation errors, then a stored and emailed message", async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 400/);
  await page.goto("/contact");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(page.getByText("Subject must be at least 3 characters")).toBeVisible();
  await expect(page.getByText("Message must be at least 10 characters")).toBeVisible();
  await expect(page.getByLabel("Name")).toBeFocused();

  const email = `e2e-${Date.now()}@example.org`;
  await page.getByLabel("Name").fill("E2E Sender");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("Enter a valid email address, like name@example.com")).toBeVisible();

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Subject").fill("Question from the e2e suite");
  await page.getByLabel("Message").fill(`Please confirm this message arrives. Sender ${email}.`);
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByTestId("contact-sent")).toContainText("Message sent");
  const reference = await page.getByTestId("contact-reference").textContent();
  expect(reference).toMatch(/^msg_/);

  // The team's copy in the development mailbox carries the same reference and the sender's text.
  await waitForMail("team@cpxtb-pay.local", new RegExp(`(Reference: ${reference})`));
  await waitForMail("team@cpxtb-pay.local", new RegExp(`(Sender ${email.replace(/[.]/g, "\\.")})`));
});

test("presentation slides move with the keyboard", async ({ page }) => {
  await page.goto("/presentation");
  const counter = page.getByTestId("slide-counter");
  await expect(counter).toHaveText("1 / 12");
  await expect(page.locator("article[data-current=true] h2")).toHaveText(
    "Crypto payments, as simple as a card",
  );
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(counter).toHaveText("3 / 12");
  await expect(page).toHaveURL(/#3$/);
  await page.keyboard.press("ArrowLeft");
  await expect(counter).toHaveText("2 / 12");
  await page.keyboard.press("End");
  await expect(counter).toHaveText("12 / 12");
  await expect(page.getByRole("button", { name: "Next slide" })).toBeDisabled();
  await page.keyboard.press("Home");
  await expect(counter).toHaveText("1 / 12");
  await page.getByRole("button", { name: "Next slide" }).click();
  await expect(counter).toHaveText("2 / 12");
  await page.reload();
  await expect(counter).toHaveText("2 / 12");
});

test("RSS and sitemap are served", async ({ request }) => {
  const rss = await (await request.get("/rss.xml")).text();
  expect(rss.match(/<item>/g)).toHaveLength(6);
  const sitemap = await (await request.get("/sitemap.xml")).text();
  expect(sitemap).toContain("/blog/how-a-qr-code-crypto-payment-works</loc>");
});

const shots = process.env.SCREENSHOTS_DIR;
for (const width of [390, 1280]) {
  for (const theme of ["dark", "light"] as const) {
    test(`content screenshots at ${width} px, ${theme}`, async ({ page }) => {
      test.skip(!shots, "set SCREENSHOTS_DIR to take screenshots");
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      for (const [name, path] of [
        ["home", "/"],
        ["blog", "/blog"],
        ["post", "/blog/integrating-payments-with-standard-webhooks"],
        ["about", "/about"],
        ["about-us", "/about-us"],
        ["contact", "/contact"],
        ["presentation", "/presentation"],
        ["legal", "/legal-documents"],
      ]) {
        await page.goto(path as string);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await page.waitForLoadState("networkidle");
        await page.screenshot({
          path: `${shots}/${name}-${width}-${theme}.png`,
          fullPage: name !== "post" && name !== "legal",
        });
      }
    });
  }
}
