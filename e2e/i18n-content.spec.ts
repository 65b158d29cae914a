import { expect, test } from "./fixtures";

// Blog posts and legal texts are written in English only (issue 37): they stay English, and a reader of another
// language is told so in theirs.
const NOTICES: [string, string][] = [
  ["de", "Diese Seite ist nur auf Englisch verfügbar."],
  ["ar", "هذه الصفحة متاحة باللغة الإنجليزية فقط."],
  ["zh-CN", "本页面仅提供英文版本。"],
];

for (const [locale, notice] of NOTICES) {
  test(`content pages say they are English only, in ${locale}`, async ({ browser }) => {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    for (const path of ["/blog/confirmations-and-why-they-matter", "/privacy-policy", "/blog"]) {
      await page.goto(path);
      const shown = page.getByTestId("english-only-notice");
      await expect(shown).toHaveText(notice);
      await expect(shown).toHaveAttribute("lang", locale);
      // The page itself stays English, and says so to screen readers.
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    }
    await context.close();
  });
}

test("an English reader gets no notice", async ({ page }) => {
  await page.goto("/blog/confirmations-and-why-they-matter");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "All articles" })).toBeVisible();
  await expect(page.getByTestId("english-only-notice")).toHaveCount(0);
});
