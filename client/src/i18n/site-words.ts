import type { Locale } from "@common/locales";
import * as React from "react";
import english from "@/locales/en/site.json";
import { addShellCatalog, type ShellId, shellCatalog, useShellLocale } from "./shell-words";

/**
 * The words of the shell's lazy parts (catalog area `site`: the side menu, the wallet menu, the live users count,
 * the language menu, the error and not-found screens), in the shell's language (`shell-words.tsx`). Imported by
 * those parts only, so neither these words nor the formatter are in the entry chunk; English comes with them and
 * another language with its page's words, without the translation runtime (`/` never loads it).
 */
export type SiteId = keyof typeof english;
addShellCatalog("en", english);

export type SiteValues = Record<string, string | number>;

const pluralRules = new Map<Locale, Intl.PluralRules>();
/** The plural case of `count`: English's without `Intl` (decision 023's first-call cost), others' by their rules. */
function pluralCase(locale: Locale, count: number): string {
  if (locale === "en") return count === 1 ? "one" : "other";
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

/** The text inside the braces that open at `start` (the index after `{`), and the index after the closing one. */
function braced(message: string, start: number): [string, number] {
  let depth = 1;
  for (let index = start; index < message.length; index++) {
    if (message[index] === "{") depth++;
    else if (message[index] === "}" && --depth === 0) return [message.slice(start, index), index + 1];
  }
  return [message.slice(start), message.length];
}

/**
 * An ICU message of the shell's catalogs with its values: `{name}` and `{name, plural, =0 {…} one {…} other {…}}`
 * (with `#`), the only forms they use; the catalog check parses every message as ICU, and site-words.test.ts
 * formats each one of each language here.
 */
export function formatMessage(message: string, values: SiteValues, locale: Locale, count?: number): string {
  let out = "";
  for (let index = 0; index < message.length; ) {
    const char = message[index] as string;
    if (char === "#" && count !== undefined) {
      out += String(count);
      index++;
    } else if (char !== "{") {
      out += char;
      index++;
    } else {
      const [inner, next] = braced(message, index + 1);
      index = next;
      const [name = "", kind, ...rest] = inner.split(",");
      const value = values[name.trim()];
      if (kind?.trim() !== "plural") {
        out += value ?? "";
        continue;
      }
      const number = Number(value);
      const cases = new Map<string, string>();
      const body = rest.join(",");
      for (let at = 0; at < body.length; ) {
        const open = body.indexOf("{", at);
        if (open < 0) break;
        const key = body.slice(at, open).trim();
        const [text, after] = braced(body, open + 1);
        cases.set(key, text);
        at = after;
      }
      const chosen =
        cases.get(`=${number}`) ?? cases.get(pluralCase(locale, number)) ?? cases.get("other") ?? "";
      out += formatMessage(chosen, values, locale, number);
    }
  }
  return out;
}

export type SiteT = (id: SiteId | ShellId, values?: SiteValues) => string;

/** A message of the shell's catalogs in `locale`, English when that language does not have it. */
export function siteText(locale: Locale, id: SiteId | ShellId, values: SiteValues = {}): string {
  const message = shellCatalog(locale)[id] ?? shellCatalog("en")[id] ?? id;
  return formatMessage(message, values, locale);
}

/** `t` of the shell's lazy parts, in the shell's language (it renders again when that changes). */
export function useSiteT(): { t: SiteT; locale: Locale } {
  const locale = useShellLocale();
  const t = React.useCallback<SiteT>((id, values) => siteText(locale, id, values), [locale]);
  return { t, locale };
}
