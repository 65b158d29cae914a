import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LOCALES } from "@common/locales";
import { describe, expect, it } from "vitest";
import { formatMessage } from "./site-words";

/**
 * The shell's words (areas `shell` and `site`) are formatted without Lingui's runtime (shell-words.tsx): every
 * message of every language comes out whole with this formatter, its values in place and no ICU syntax left.
 */
// Tests run from the repository's root (a jsdom environment has no file: import.meta.url).
const catalog = (locale: string, area: string): Record<string, string> =>
  JSON.parse(readFileSync(join(process.cwd(), "client/src/locales", locale, `${area}.json`), "utf8"));

const VALUES = {
  address: "0x12ab…89cd",
  network: "Ethereum",
  tokenNetwork: "Base",
  symbol: "CPXTB",
  amount: "1,234.5",
  path: "/nowhere",
};

describe("the shell's formatter", () => {
  it("fills values and chooses the plural case of the language", () => {
    const users = catalog("en", "site")["site.liveUsers"] as string;
    expect(formatMessage(users, { count: 1 }, "en")).toBe("1 user online");
    expect(formatMessage(users, { count: 12 }, "en")).toBe("12 users online");
    const arabic = catalog("ar", "site")["site.liveUsers"] as string;
    expect(formatMessage(arabic, { count: 2 }, "ar")).toBe("مستخدمان متصلان");
    expect(formatMessage(arabic, { count: 5 }, "ar")).toBe("5 مستخدمين متصلين");
    expect(formatMessage(arabic, { count: 11 }, "ar")).toBe("11 مستخدمًا متصلًا");
    expect(formatMessage("Wallet {address}", VALUES, "en")).toBe("Wallet 0x12ab…89cd");
  });

  for (const locale of LOCALES) {
    it(`writes every shell message of ${locale} whole`, () => {
      for (const area of ["shell", "site"]) {
        for (const [id, message] of Object.entries(catalog(locale, area))) {
          for (const count of [0, 1, 2, 3, 11, 100]) {
            const text = formatMessage(message, { ...VALUES, count }, locale);
            expect(text, `${locale}: ${id}`).not.toMatch(/[{}#]|\bplural\b/);
            expect(text.trim(), `${locale}: ${id}`).not.toBe("");
            for (const [name, value] of Object.entries(VALUES))
              if (message.includes(`{${name}}`)) expect(text, `${locale}: ${id}`).toContain(value);
          }
        }
      }
    });
  }
});
