import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkCatalogs } from "../../scripts/check-catalogs.mjs";
import { LOCALES, MESSAGE_AREAS, SERVER_MESSAGE_AREAS } from "./locales.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("message catalogs", () => {
  it("have every English message in every language, with the same placeholders, none unused or unknown", () => {
    expect(
      checkCatalogs(root, { locales: LOCALES, areas: MESSAGE_AREAS, serverAreas: SERVER_MESSAGE_AREAS }),
    ).toEqual([]);
  });
});

describe("the catalog check", () => {
  const dir = mkdtempSync(join(tmpdir(), "catalogs-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, content: string | object) => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), typeof content === "string" ? content : JSON.stringify(content));
  };

  it("names each kind of mistake", () => {
    write("client/src/locales/en/pay.json", {
      "pay.hello": "Hello {name}",
      "pay.count": "{count, plural, one {# payment} other {# payments}}",
      "pay.unused": "Nobody says this",
      "pay.embedOnly": "Said by the pay button's script",
    });
    write("client/src/locales/de/pay.json", {
      "pay.hello": "Hallo {nom}",
      "pay.count": "{count, plural, one {# Zahlung}}",
      "pay.unused": "Niemand",
      "pay.extra": "Zu viel",
    });
    write("client/src/locales/fr/pay.json", { "pay.hello": "Bonjour {name" });
    write(
      "client/src/app/page.tsx",
      'const a = t("pay.hello"); const b = t("pay.count", { count: 2 }); const c = t("pay.typo");',
    );
    write("client/embed/embed.ts", 'const label = words["pay.embedOnly"];');
    mkdirSync(join(dir, "server/src"), { recursive: true });
    const problems = checkCatalogs(dir, { locales: ["en", "de", "fr"], areas: ["pay"] });
    expect(problems).toEqual(
      expect.arrayContaining([
        'de/pay.json: "pay.hello" has placeholders {nom} where English has {name}',
        'de/pay.json: "pay.count": no "other" case for {count}',
        'de/pay.json: "pay.extra" is not in English (extra)',
        'fr/pay.json: missing "pay.count"',
        'client/src/app/page.tsx: "pay.typo" is in no catalog',
        'en/pay.json: "pay.unused" is used nowhere in client/src, client/embed or server/src',
      ]),
    );
    // The pay button's script names its words too.
    expect(problems.filter((p) => p.includes('"pay.embedOnly" is used nowhere'))).toEqual([]);
    expect(problems.some((p) => p.startsWith('fr/pay.json: "pay.hello":'))).toBe(true);
  });
});
