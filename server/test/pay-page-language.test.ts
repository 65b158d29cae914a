import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import {
  api,
  createMerchant,
  createPayment,
  paymentTestConfig,
  type TestMerchant,
} from "./payment-helpers.ts";

// A built client with a stand-in server-rendering entry that writes down the language it was asked to render in
// (the real entry's translation is checked in the browser, e2e/i18n-pay.spec.ts).
const root = mkdtempSync(join(tmpdir(), "cpxtb-pay-language-"));
const clientDist = join(root, "client");
mkdirSync(clientDist);
writeFileSync(
  join(clientDist, "index.html"),
  `<!doctype html><html lang="en" class="dark"><head><title>CPXTB Pay</title></head><body><div id="root"></div></body></html>`,
);
// The build's manifest: the pay page's chunk, the data layer and the checkout's catalogs (decision 036).
mkdirSync(join(clientDist, ".vite"));
writeFileSync(
  join(clientDist, ".vite", "manifest.json"),
  JSON.stringify({
    "index.html": { file: "assets/index-Ab1.js", isEntry: true, imports: ["_react-Cd2.js"] },
    "_react-Cd2.js": { file: "assets/react-Cd2.js" },
    "src/app/routes/pay.tsx": {
      file: "assets/pay-Ef3.js",
      isDynamicEntry: true,
      imports: ["_react-Cd2.js", "_i18n-Gh4.js"],
    },
    "_i18n-Gh4.js": { file: "assets/i18n-Gh4.js" },
    "src/app/data-layer.tsx": { file: "assets/data-layer-Ij5.js", isDynamicEntry: true },
    ...Object.fromEntries(
      ["en", "pt-BR"].flatMap((locale) =>
        ["pay", "wallet", "merchant"].map((area) => [
          `src/locales/${locale}/${area}.json?lingui`,
          { file: `assets/${area}-${locale}.js`, isDynamicEntry: true },
        ]),
      ),
    ),
  }),
);
mkdirSync(join(root, "ssr"));
writeFileSync(
  join(root, "ssr", "entry-server.js"),
  `export async function renderPage(path, data, locale) {
    return path.startsWith("/pay/") || path === "/merchant"
      ? '<main data-locale="' + locale + '">' + path + "</main>"
      : null;
  }
  export async function translate(locale, id, values) {
    return locale + ":" + id + (values ? " " + JSON.stringify(values) : "");
  }`,
);

let chain: TestChain;
let app: App;
let merchant: TestMerchant;
let reference: string;

beforeAll(async () => {
  chain = await startTestChain();
  const connected = await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations: 1 }));
  app = await createTestApp({ ...paymentTestConfig(), clientDist }, { chain: connected });
  merchant = await createMerchant(app);
  reference = (await createPayment(app, merchant.cookie)).reference;
});
afterAll(async () => {
  await app?.close();
  await chain?.stop();
});

const open = (headers: Record<string, string>, ref = reference) =>
  app.inject({ method: "GET", url: `/pay/${ref}`, headers: { "accept-encoding": "identity", ...headers } });

/** The language attributes of a page's `<html>` element. */
function htmlTag(html: string) {
  const tag = /<html[^>]*>/.exec(html)?.[0] ?? "";
  return {
    lang: /\blang="([^"]*)"/.exec(tag)?.[1],
    dir: /\bdir="([^"]*)"/.exec(tag)?.[1],
    rendered: /\bdata-locale-rendered\b/.test(tag),
  };
}

describe("the pay page's language (issue 37)", () => {
  it("preloads its own code and its words in its language with the app's code, after its first paint", async () => {
    const res = await open({ "accept-language": "pt-BR,pt;q=0.9" });
    const template = /<template id="after-paint">([\s\S]*?)<\/template>/.exec(res.body)?.[1] ?? "";
    const preloaded = [...template.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)" \/>/g)].map(
      ([, href]) => href,
    );
    expect(preloaded.sort()).toEqual([
      "/assets/data-layer-Ij5.js",
      "/assets/i18n-Gh4.js",
      "/assets/pay-Ef3.js",
      "/assets/pay-pt-BR.js",
      "/assets/wallet-pt-BR.js",
    ]);
    expect(res.body.slice(0, res.body.indexOf("</head>"))).not.toContain("modulepreload");
  });

  it("follows the browser's Accept-Language, and says so in its headers and <html>", async () => {
    const res = await open({ "accept-language": "pt-BR,pt;q=0.9,en;q=0.8" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-language"]).toBe("pt-BR");
    expect(String(res.headers.vary)).toMatch(/Accept-Language/);
    expect(String(res.headers.vary)).toMatch(/Cookie/);
    expect(htmlTag(res.body)).toEqual({ lang: "pt-BR", dir: "ltr", rendered: true });
    expect(res.body).toContain(`<main data-locale="pt-BR">/pay/${reference}</main>`);
    expect(res.body).toContain("<title>pt-BR:pay.meta.title");
    expect(res.body).toContain("pt-BR:pay.meta.description {&quot;merchant&quot;:&quot;Corner Coffee&quot;");
  });

  it("lays Arabic out right to left, and matches a language's other regions and weights", async () => {
    const ar = await open({ "accept-language": "ar-EG" });
    expect(ar.headers["content-language"]).toBe("ar");
    expect(htmlTag(ar.body)).toEqual({ lang: "ar", dir: "rtl", rendered: true });
    const weighted = await open({ "accept-language": "ja;q=1, es-MX;q=0.5, de;q=0.7" });
    expect(weighted.headers["content-language"]).toBe("de");
    // Traditional Chinese is not Simplified: the next language the browser lists, else English.
    expect((await open({ "accept-language": "zh-TW" })).headers["content-language"]).toBe("en");
    expect((await open({ "accept-language": "zh-Hans-CN" })).headers["content-language"]).toBe("zh-CN");
    expect((await open({})).headers["content-language"]).toBe("en");
  });

  it("prefers the language the payer chose in the menu (its cookie) to the browser's", async () => {
    const res = await open({ "accept-language": "ar", cookie: "cpxtb_lang=de" });
    expect(res.headers["content-language"]).toBe("de");
    // A cookie that names no language of ours is ignored.
    expect(
      (await open({ "accept-language": "fr", cookie: "cpxtb_lang=xx" })).headers["content-language"],
    ).toBe("fr");
  });

  it("opens in the merchant's language when they set one, which the payer's own choice still overrides", async () => {
    const as = api(app, merchant.cookie);
    expect((await as.patch("/api/merchant", { payLanguage: "xx" })).json()).toMatchObject({
      error: { code: "VALIDATION_ERROR" },
    });
    const set = await as.patch("/api/merchant", { payLanguage: "tr" });
    expect(set.statusCode).toBe(200);
    expect(set.json().payLanguage).toBe("tr");
    const publicView = await app.inject({ method: "GET", url: `/api/payments/public/${reference}` });
    expect(publicView.json().merchant.payLanguage).toBe("tr");
    expect((await open({ "accept-language": "es" })).headers["content-language"]).toBe("tr");
    expect(
      (await open({ "accept-language": "es", cookie: "cpxtb_lang=id" })).headers["content-language"],
    ).toBe("id");
    const cleared = await as.patch("/api/merchant", { payLanguage: null });
    expect(cleared.json().payLanguage).toBeNull();
    expect((await open({ "accept-language": "es" })).headers["content-language"]).toBe("es");
  });

  it("opens in the payer's language the business gave with the request, before its own default", async () => {
    const as = api(app, merchant.cookie);
    await as.patch("/api/merchant", { payLanguage: "de" });
    const { reference: forArabic, payerLanguage } = await createPayment(app, merchant.cookie, {
      payerLanguage: "ar",
    });
    expect(payerLanguage).toBe("ar");
    const publicView = await app.inject({ method: "GET", url: `/api/payments/public/${forArabic}` });
    expect(publicView.json()).toMatchObject({ payerLanguage: "ar", merchant: { payLanguage: "de" } });
    const res = await open({ "accept-language": "es" }, forArabic);
    expect(res.headers["content-language"]).toBe("ar");
    expect(htmlTag(res.body)).toEqual({ lang: "ar", dir: "rtl", rendered: true });
    // The payer's own choice (the menu's cookie) still wins.
    expect((await open({ cookie: "cpxtb_lang=es" }, forArabic)).headers["content-language"]).toBe("es");
    // A request without one: the business's default, as before.
    expect((await open({ "accept-language": "es" })).headers["content-language"]).toBe("de");
    await as.patch("/api/merchant", { payLanguage: null });
  });

  it("explains an unknown reference in the payer's language", async () => {
    const res = await open({ "accept-language": "fr-CA" }, "nope-this-is-not-a-reference-at-all");
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-language"]).toBe("fr");
    expect(res.body).toContain("fr:pay.meta.notFound");
  });
});

describe("the dashboard's frame in the reader's language (decisions 025, 038)", () => {
  it("sends the page's own title and description in that language, as the page sets them after hydration", async () => {
    const res = await app.inject({
      method: "GET",
      url: "/merchant",
      headers: {
        "accept-encoding": "identity",
        "accept-language": "de-AT,de;q=0.9",
        cookie: merchant.cookie,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-language"]).toBe("de");
    expect(htmlTag(res.body)).toEqual({ lang: "de", dir: "ltr", rendered: true });
    expect(res.body).toContain('<main data-locale="de">/merchant</main>');
    // PageFrame's document title: "{merchant.page.title} · CPXTB Pay".
    expect(res.body).toContain("<title>de:merchant.page.title · CPXTB Pay</title>");
    expect(res.body).toContain("de:merchant.page.description");
    expect(res.body).not.toContain("Merchant Dashboard");
  });
});

describe("a payment link's page in the reader's language (decision 038)", () => {
  it("describes a link without the merchant's own description, and an unknown link, in that language", async () => {
    const as = api(app, merchant.cookie);
    const created = await as.post("/api/merchant/links", {
      title: "Flat white",
      pricing: "fixed",
      currency: "USD",
      amount: "3.50",
    });
    expect(created.statusCode).toBe(201);
    const { slug } = created.json() as { slug: string };
    const page = (path: string) =>
      app.inject({
        url: path,
        headers: { "accept-encoding": "identity", "accept-language": "tr-TR,tr;q=0.9" },
      });
    const res = await page(`/l/${slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-language"]).toBe("tr");
    expect(res.body).toContain("<title>Flat white");
    expect(res.body).toContain(
      "tr:pay.meta.linkDescription {&quot;merchant&quot;:&quot;Corner Coffee&quot;}",
    );
    const unknown = await page("/l/no-such-link");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain("<title>tr:pay.meta.title");
    expect(unknown.body).toContain("tr:pay.meta.linkNotFound");
    expect(unknown.body).not.toContain("No payment link has this address");
  });
});
