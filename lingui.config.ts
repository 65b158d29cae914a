import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-json";
import { LOCALES, MESSAGE_AREAS } from "./common/src/locales.ts";

/**
 * Message catalogs (decision 038): one JSON file per language and area, `{ "id": "ICU message" }`, written by hand
 * (ids are explicit, no extraction). The Vite plugin compiles the catalog a page imports at build time; a message
 * missing in a language falls back to English (and `npm test`'s catalog check fails on it).
 */
export default defineConfig({
  sourceLocale: "en",
  locales: [...LOCALES],
  fallbackLocales: { default: "en" },
  format: formatter({ style: "minimal" }),
  catalogs: MESSAGE_AREAS.map((area) => ({
    path: `<rootDir>/client/src/locales/{locale}/${area}`,
    include: [],
  })),
});
