import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { LOCALE_NAMES } from "../common/src/locales";
import { expect as baseExpect, test } from "./fixtures";
import { type Catalog, catalogOf, expectTranslated } from "./support/i18n";
import { createMerchant } from "./support/payments";

/**
 * The merchant's developer screens in their reader's language (issue 37), at a phone's width, in Arabic (right to
 * left) and Spanish, with real data: an API key created (its secret shown once), a payment link created, the pay
 * button's snippet for it, a webhook endpoint added and its test event delivered to a real receiver. On each
 * screen: no English word of the developers' or the checkout's catalogs in `main` (code, the snippet, URLs and
 * event names are not translated: the text of `main`'s code and pre elements is allowed), no sideways scroll, axe
 * clean, <html lang dir> right; and the server's refusals (a URL that is not https, a website that is not an
 * origin) in the reader's words.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
const BUSINESS = "Kafe Lumbung";
const KEY_NAME = "Kasir-7";
const LINK_TITLE = "Roti Tawar";
const AREAS = ["developers", "pay"] as const;

/** A message with its plain placeholders filled (no plural or select in the ones used here). */
const fill = (message: string | undefined, values: Record<string, string | number>) =>
  Object.entries(values).reduce(
    (text, [name, value]) => text.replaceAll(`{${name}}`, String(value)),
    message ?? "",
  );

/** The merchant's server: a real HTTP listener on loopback (the e2e server accepts loopback endpoints). */
async function startReceiver() {
  let received = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received += 1;
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received: () => received, close: () => server.close() };
}

/** What is code in `main` (paths, headers, the snippet, event names, URLs): written as it is, in every language. */
async function codeIn(page: Page): Promise<string> {
  const texts = await page
    .locator("main code, main pre, main [data-testid='embed-preview'] [lang='en']")
    .allInnerTexts();
  return texts.join(" ");
}

for (const locale of ["ar", "es"] as const) {
  test.describe(`in ${LOCALE_NAMES[locale]}`, () => {
    const viewport = { width: 390, height: 844 };
    test.use({ locale, viewport });

    test(`${locale}: API keys, payment links, the pay button and webhooks, with no English left`, async ({
      page,
      consoleGuard,
    }) => {
      test.setTimeout(240_000);
      // The refusals this test asks for on purpose (Chromium logs each 400).
      consoleGuard.allow(/status of 400 .*\/api\/merchant\/(embed\/origins|webhooks)/);
      const t: Catalog = catalogOf(locale, AREAS);
      const owner = await createMerchant(page.request, { name: BUSINESS });
      const data = `${BUSINESS} ${KEY_NAME} ${LINK_TITLE} ${owner.username} CPXTB Pay`;
      const check = async (where: string) =>
        expectTranslated(page, locale, where, {
          areas: AREAS,
          allowed: `${data} ${await codeIn(page)}`,
          root: "main",
        });
      // A URL in a sentence of a right-to-left language is isolated (i18n/ltr.tsx `isolate`).
      const isolated = (text: string) => (locale === "ar" ? `\u2066${text}\u2069` : text);
      const shot = (name: string) =>
        page.screenshot({ path: test.info().outputPath(`${name}-${locale}.png`), fullPage: true });

      // /developers: a key without a name is refused in the reader's words, then created; its secret shown once.
      await page.goto("/developers");
      await expect(page.getByRole("heading", { level: 1, name: t["developers.page.title"] })).toBeVisible({
        timeout: 60_000,
      });
      await expect(page.getByText(t["developers.keys.empty"] as string)).toBeVisible();
      await expect(page.getByTestId("test-keys-notice")).toContainText(
        t["developers.testKeys.title"] as string,
      );
      await page.getByRole("button", { name: t["developers.create.submit"] }).click();
      await expect(page.getByText(t["developers.create.nameMissing"] as string)).toBeVisible();
      await page.getByLabel(t["developers.create.name"] as string).fill(KEY_NAME);
      await expect(page.getByRole("checkbox", { name: t["developers.scope.read"] })).toBeChecked();
      await page.getByRole("button", { name: t["developers.create.submit"] }).click();
      const secret = page.getByTestId("new-api-key");
      await expect(secret).toContainText(fill(t["developers.secret.title"], { name: KEY_NAME }));
      await expect(page.getByTestId("api-key-secret")).toHaveText(/^cpx_test_/);
      await expect(
        page.getByRole("button", {
          name: fill(t["pay.copy.copyLabel"], { label: t["developers.secret.copyLabel"] as string }),
        }),
      ).toBeVisible();
      const row = page.getByTestId("api-key-row").filter({ hasText: KEY_NAME });
      await expect(row).toContainText(t["developers.keys.never"] as string);
      await check("/developers with a new key's secret");
      await shot("developers-secret");
      await secret.getByRole("button", { name: t["developers.secret.done"] }).click();
      await row
        .getByRole("button", { name: fill(t["developers.keys.revokeLabel"], { name: KEY_NAME }) })
        .click();
      await expect(row).toContainText(fill(t["developers.keys.confirmRevoke"], { name: KEY_NAME }));
      await check("/developers, confirming a revocation");
      await row.getByRole("button", { name: t["developers.common.cancel"] }).click();

      // /links: a payment link created with the form, listed with its price, state and stats.
      await page.goto("/links");
      await page.getByRole("button", { name: t["developers.links.newLink"] }).click();
      const form = page.getByTestId("link-form");
      await form.getByRole("button", { name: t["developers.linkForm.create"] }).click();
      await expect(form.getByText(t["developers.linkForm.titleMissing"] as string)).toBeVisible();
      await form.getByRole("textbox", { name: t["developers.linkForm.title"], exact: true }).fill(LINK_TITLE);
      await form.getByRole("textbox", { name: t["developers.linkForm.price"], exact: true }).fill("4.50");
      await check("the new payment link's form");
      await form.getByRole("button", { name: t["developers.linkForm.create"] }).click();
      const card = page.getByTestId("link-card").filter({ hasText: LINK_TITLE });
      await expect(card.getByTestId("link-state")).toHaveText(t["developers.links.on"] as string);
      await expect(card).toContainText(t["developers.links.received"] as string);
      await check("/links");
      await shot("links");

      // Back on /developers: the pay button sells the link; a website that is not an origin is refused in words.
      await page.goto("/developers");
      await page
        .getByLabel(t["developers.button.sells"] as string)
        .selectOption({ label: fill(t["developers.button.sellsLink"], { title: LINK_TITLE }) });
      await expect(page.getByTestId("embed-snippet")).toContainText("data-cpxtb-link");
      const origins = page.getByLabel(t["developers.embed.label"] as string);
      await origins.fill("https://shop.example/toko");
      await page.getByRole("button", { name: t["developers.embed.save"] }).click();
      const notOrigin = fill(t["developers.embed.problem.notOrigin"], {
        number: 1,
        value: isolated("https://shop.example/toko"),
      });
      await expect(page.getByRole("alert").filter({ hasText: notOrigin })).toBeVisible();
      await check("/developers with the pay button's snippet and a refused website");
      await shot("developers-pay-button");

      // /webhooks: a URL that is not https is refused by the server in the reader's words; a receiver is added.
      const receiver = await startReceiver();
      try {
        await page.goto("/webhooks");
        await expect(
          page.getByRole("heading", { level: 1, name: t["developers.webhooks.title"] }),
        ).toBeVisible();
        await expect(page.getByText(t["developers.webhooks.noEndpoints"] as string)).toBeVisible();
        const url = page.getByLabel(t["developers.webhooks.url"] as string);
        await url.fill("ftp://shop.example/hook");
        await page.getByRole("button", { name: t["developers.webhooks.add"] }).click();
        const refusal = [t["developers.error.urlHttpsDev"], t["developers.error.urlHttps"]] as string[];
        await expect(
          page.getByText(new RegExp(refusal.map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"))),
        ).toBeVisible();
        await check("/webhooks with a refused URL");
        // A host that does not resolve: named (left to right) inside the reader's sentence (details.reason).
        await url.fill("https://no-such-host.invalid/hook");
        await page.getByRole("button", { name: t["developers.webhooks.add"] }).click();
        const [before = "", after = ""] = (t["developers.error.hostUnresolved"] as string).split("{host}");
        const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
        await expect(
          page.getByText(
            new RegExp(`${literal(before)}\u2066?no-such-host\\.invalid\u2069?${literal(after)}`),
          ),
        ).toBeVisible();
        await url.fill(receiver.url);
        await page.getByRole("button", { name: t["developers.webhooks.add"] }).click();
        await expect(page.getByTestId("webhook-secret")).toContainText(
          t["developers.webhooks.secretTitle"] as string,
        );
        const endpoint = page.getByTestId("webhook-endpoint").filter({ hasText: receiver.url });
        await expect(endpoint.getByTestId("development-only")).toHaveText(
          t["developers.webhooks.devOnly"] as string,
        );
        await check("/webhooks with the new endpoint's signing secret");
        await shot("webhooks-secret");
        await page.getByRole("button", { name: t["developers.webhooks.secretDone"] }).click();

        // A test event, delivered to the receiver: its status and attempt in the reader's words.
        await endpoint.getByRole("button", { name: t["developers.webhooks.sendTest"] }).click();
        const delivery = endpoint.getByTestId("webhook-delivery").first();
        await expect(delivery).toContainText(t["developers.webhooks.delivered"] as string);
        expect(receiver.received()).toBeGreaterThan(0);
        await check("/webhooks with a delivered test event");
        await shot("webhooks-delivered");

        if (locale === "ar") {
          // The same screens in the light theme (the app starts dark), for a look.
          await page.evaluate(() => window.localStorage.setItem("cpxtb-pay-theme", "light"));
          await page.reload();
          await expect(delivery).toContainText(t["developers.webhooks.delivered"] as string);
          await shot("webhooks-light");
          await page.goto("/developers");
          await expect(page.getByTestId("api-key-row")).toHaveCount(1);
          await shot("developers-light");
          await page.goto("/links");
          await expect(card).toBeVisible();
          await shot("links-light");
        }
      } finally {
        receiver.close();
      }
    });
  });
}

test.describe("in Español at a desktop's width", () => {
  test.use({ locale: "es", viewport: { width: 1280, height: 900 } });

  test("es: /developers side by side, with no English left", async ({ page }) => {
    test.setTimeout(120_000);
    const t: Catalog = catalogOf("es", AREAS);
    await createMerchant(page.request, { name: BUSINESS });
    await page.goto("/developers");
    await page.getByLabel(t["developers.create.name"] as string).fill(KEY_NAME);
    await page.getByRole("button", { name: t["developers.create.submit"] }).click();
    await expect(page.getByTestId("api-key-secret")).toHaveText(/^cpx_test_/);
    await expectTranslated(page, "es", "/developers at 1280 px", {
      areas: AREAS,
      allowed: `${BUSINESS} ${KEY_NAME} ${await codeIn(page)}`,
      root: "main",
    });
    await page.screenshot({ path: test.info().outputPath("developers-desktop-es.png"), fullPage: true });
  });
});
