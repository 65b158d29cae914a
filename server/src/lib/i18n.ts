import { DEFAULT_LOCALE, type Locale, matchLocale } from "@common/locales.ts";
import { type I18n, setupI18n } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import ar from "../locales/ar/email.json" with { type: "json" };
import de from "../locales/de/email.json" with { type: "json" };
import en from "../locales/en/email.json" with { type: "json" };
import es from "../locales/es/email.json" with { type: "json" };
import fr from "../locales/fr/email.json" with { type: "json" };
import id from "../locales/id/email.json" with { type: "json" };
import ptBR from "../locales/pt-BR/email.json" with { type: "json" };
import tr from "../locales/tr/email.json" with { type: "json" };
import zhCN from "../locales/zh-CN/email.json" with { type: "json" };

/**
 * The server's words (issue 37, decision 038): emails in their recipient's language. The catalogs
 * (server/src/locales/{locale}/email.json) are checked with the app's by `npm test`; their ICU messages are compiled
 * the first time each is used.
 */
const CATALOGS: Record<Locale, Record<string, string>> = {
  en,
  es,
  "pt-BR": ptBR,
  fr,
  de,
  tr,
  id,
  "zh-CN": zhCN,
  ar,
};

const instances = new Map<Locale, I18n>();

function instanceOf(locale: Locale): I18n {
  let i18n = instances.get(locale);
  if (!i18n) {
    i18n = setupI18n({ locale, messages: { [locale]: { ...CATALOGS.en, ...CATALOGS[locale] } } });
    i18n.setMessagesCompiler(compileMessage);
    instances.set(locale, i18n);
  }
  return i18n;
}

/** Our language for a stored preference or browser tag ("pt-PT" -> pt-BR), else English. */
export function readerLocale(tag: string | null | undefined): Locale {
  return matchLocale(tag) ?? DEFAULT_LOCALE;
}

/** A function giving the server's messages in `locale`, their placeholders filled. */
export function translator(locale: Locale) {
  const i18n = instanceOf(locale);
  return (id: string, values?: Record<string, string | number>) => i18n._(id, values);
}
