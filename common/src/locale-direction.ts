/**
 * Which languages are written right to left (issue 37, decision 038). A module of its own, apart from
 * `locales.ts`: the app's shell (in the entry chunk of `/`) needs only this, and a module the entry shares is
 * bundled whole into it (the languages' names, the `Accept-Language` parser).
 */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(["ar"]);

export function directionOf(locale: string): "ltr" | "rtl" {
  return RIGHT_TO_LEFT.has(locale) ? "rtl" : "ltr";
}
