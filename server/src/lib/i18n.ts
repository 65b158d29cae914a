import {
  acceptedLanguages,
  chooseLocale,
  DEFAULT_LOCALE,
  LOCALE_COOKIE,
  type Locale,
  matchLocale,
} from "@common/locales.ts";
import { type I18n, setupI18n } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import type { FastifyRequest } from "fastify";
import ar from "../locales/ar/email.json" with { type: "json" };
import arPage from "../locales/ar/page.json" with { type: "json" };
import de from "../locales/de/email.json" with { type: "json" };
import dePage from "../locales/de/page.json" with { type: "json" };
import en from "../locales/en/email.json" with { type: "json" };
import enPage from "../locales/en/page.json" with { type: "json" };
import es from "../locales/es/email.json" with { type: "json" };
import esPage from "../locales/es/page.json" with { type: "json" };
import fr from "../locales/fr/email.json" with { type: "json" };
import frPage from "../locales/fr/page.json" with { type: "json" };
import id from "../locales/id/email.json" with { type: "json" };
import idPage from "../locales/id/page.json" with { type: "json" };
import ptBR from "../locales/pt-BR/email.json" with { type: "json" };
import ptBRPage from "../locales/pt-BR/page.json" with { type: "json" };
import tr from "../locales/tr/email.json" with { type: "json" };
import trPage from "../locales/tr/page.json" with { type: "json" };
import zhCN from "../locales/zh-CN/email.json" with { type: "json" };
import zhCNPage from "../locales/zh-CN/page.json" with { type: "json" };

/**
 * The server's words (issue 37, decision 038): emails in their recipient's language, and the few pages the server
 * writes without the app. The catalogs (server/src/locales/{locale}/email.json, page.json) are checked with the
 * app's by `npm test`; their ICU messages are compiled the first time each is used.
 */
const CATALOGS: Record<Locale, Record<string, string>> = {
  en: { ...en, ...enPage },
  es: { ...es, ...esPage },
  "pt-BR": { ...ptBR, ...ptBRPage },
  fr: { ...fr, ...frPage },
  de: { ...de, ...dePage },
  tr: { ...tr, ...trPage },
  id: { ...id, ...idPage },
  "zh-CN": { ...zhCN, ...zhCNPage },
  ar: { ...ar, ...arPage },
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

/**
 * The language of a request (decision 038): the visitor's own choice (the cookie the language menu sets), else the
 * page's default (a merchant's language for their pay pages), else the browser's `Accept-Language`, else English.
 */
export function requestLocale(request: FastifyRequest, pageDefault?: string | null): Locale {
  return chooseLocale({
    chosen: request.cookies?.[LOCALE_COOKIE],
    pageDefault,
    browser: acceptedLanguages(request.headers["accept-language"]),
  });
}

/**
 * The language of an email to a person with an account (issue 37): the one stored with the account (the language
 * menu's choice once signed in, else the browser's at sign-in), else that of the request that caused the email
 * (a reset asked for by someone not signed in, an account just made), else English.
 */
export function recipientLocale(stored: string | null | undefined, request: FastifyRequest): Locale {
  return matchLocale(stored) ?? requestLocale(request);
}

/** A function giving the server's messages in `locale`, their placeholders filled. */
export function translator(locale: Locale) {
  const i18n = instanceOf(locale);
  return (id: string, values?: Record<string, string | number>) => i18n._(id, values);
}
