import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LOCALES } from "@common/locales";
import { describe, expect, it } from "vitest";

/**
 * The pay page's words (issue 37): every message of the English pay catalog exists in each language with the same
 * placeholders, and every id the pay page's code names exists in English. (The whole-app check of npm test covers
 * every area; this one fails at once on the pay page's own keys.)
 */
// Tests run from the repository's root (a jsdom environment has no file: import.meta.url).
const read = (path: string) => readFileSync(join(process.cwd(), "client/src", path), "utf8");
const catalog = (locale: string): Record<string, string> => JSON.parse(read(`locales/${locale}/pay.json`));
const placeholders = (message: string) => [...new Set(message.match(/\{\w+/g) ?? [])].sort();

const OURS = /^pay\.(view|status|header|footer|language|copy|qr|meta)\./;
const en = catalog("en");

describe("the pay page's catalog", () => {
  for (const locale of LOCALES) {
    it(`${locale} has every message of the pay page, with English's placeholders`, () => {
      const messages = catalog(locale);
      for (const [id, english] of Object.entries(en).filter(([id]) => OURS.test(id))) {
        expect(messages[id], `${locale}: ${id}`).toBeTypeOf("string");
        expect(placeholders(messages[id] ?? ""), `${locale}: ${id}`).toEqual(placeholders(english));
        if (locale !== "en") expect(messages[id]?.trim(), `${locale}: ${id}`).not.toBe("");
      }
    });
  }

  it("names only ids that exist", () => {
    const files = [
      "features/payments/components/pay-view.tsx",
      "i18n/language-menu.tsx",
      "app/routes/pay.tsx",
      "app/routes/payment.tsx",
    ];
    const ids = files.flatMap((file) =>
      [...read(file).matchAll(/"(pay\.[\w.]+)"/g)].map((m) => m[1] as string),
    );
    expect(ids.length).toBeGreaterThan(50);
    expect(ids.filter((id) => !(id in en))).toEqual([]);
  });
});
