import { MAX_API_KEYS } from "@common/api-keys";
import { normalizeEmbedOrigin } from "@common/embed-values";
import { apiErrorText, detailOf } from "@/features/payments/pay-error-text";
import { currentLocale, t } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";

/** The webhooks' endpoint limit (server/src/modules/webhooks/service.ts MAX_ENDPOINTS). */
const MAX_ENDPOINTS = 20;

/**
 * The sentences of the shared schemas (common/src/api-keys.ts, webhooks.ts, links.ts, payments.ts), which the
 * forms check before sending and the server answers with, by their exact English wording.
 */
const SCHEMA_MESSAGES: Record<string, string> = {
  "Give the key a name.": "developers.create.nameMissing",
  "Choose at least one permission.": "developers.create.scopesMissing",
  "Enter the URL.": "developers.error.urlMissing",
  "Choose at least one event.": "developers.webhooks.eventsMissing",
  "Give the link a title.": "developers.linkForm.titleMissing",
  "The title can be at most 120 characters.": "developers.linkForm.titleTooLong",
  "The description can be at most 1000 characters.": "developers.linkForm.descriptionTooLong",
  "The link address must be 3 to 64 letters, digits or dashes (no dash at the start or end).":
    "developers.linkForm.slugInvalid",
  "The image is too large: at most 64 KB.": "developers.linkForm.imageTooLarge",
  "The image must be an https:// address or an image (PNG, JPEG, WebP or GIF) of at most 64 KB.":
    "developers.linkForm.imageInvalid",
  "A fixed-price link needs its price.": "developers.linkForm.priceMissing",
  "Set the least a payer may pay.": "developers.linkForm.minMissing",
  "Enter a USD amount like 12.50, with at most 2 decimals.": "developers.linkForm.usdFormat",
  "Enter a CPXTB amount like 100.5, with at most 3 decimals.": "developers.linkForm.cpxtbFormat",
  "The amount must be at least 0.01.": "developers.linkForm.usdTooSmall",
  "The amount must be more than 0.": "developers.linkForm.cpxtbZero",
  "The quantity limit must be a whole number of at least 1.": "developers.linkForm.quantityInvalid",
  "The quantity limit can be at most 1,000,000.": "developers.linkForm.quantityTooLarge",
};

/**
 * The server's sentences the developer screens meet (server/src/modules/api-keys, webhooks, links, embed), by
 * their exact English wording: NOT_FOUND, CONFLICT and VALIDATION_ERROR each carry several meanings.
 */
export const SERVER_MESSAGES: Record<string, string> = {
  ...SCHEMA_MESSAGES,
  [`A business can have at most ${MAX_API_KEYS} keys. Revoke one you no longer use.`]:
    "developers.error.tooManyKeys",
  "No such key (or it was already revoked).": "developers.error.keyNotFound",
  "Enter a full URL, like https://shop.example/webhooks.": "developers.error.urlNotFull",
  "The URL must start with https:// (or, on this development install, http://127.0.0.1 or http://localhost).":
    "developers.error.urlHttpsDev",
  "The URL must start with https://.": "developers.error.urlHttps",
  "The URL must not contain a user name or password.": "developers.error.urlCredentials",
  "The URL has no host.": "developers.error.urlNoHost",
  "The URL points to a private or reserved address; webhooks go to public addresses only.":
    "developers.error.urlPrivate",
  [`A business can have at most ${MAX_ENDPOINTS} webhook endpoints.`]: "developers.error.tooManyEndpoints",
  "No webhook endpoint has this id.": "developers.error.endpointNotFound",
  "This delivery is being sent right now; try again in a moment.": "developers.error.deliveryBusy",
  "No webhook delivery has this id.": "developers.error.deliveryNotFound",
  "This link address is taken: choose another slug.": "developers.linkForm.slugTaken",
  "No such payment link.": "developers.error.linkNotFound",
  "You have not registered a business yet.": "developers.error.noBusiness",
};

/** The problems of common/src/embed.ts normalizeEmbedOrigin, by their wording, to whole sentences. */
const ORIGIN_PROBLEMS: Record<string, string> = {
  "wildcards are not allowed: list each origin": "developers.embed.problem.wildcard",
  "must be an origin such as https://shop.example (no path, query or #)":
    "developers.embed.problem.notOrigin",
  "is not a valid origin": "developers.embed.problem.invalid",
  "must not contain a user name or password": "developers.embed.problem.credentials",
  "must be https://": "developers.embed.problem.https",
  "http://localhost is accepted only on a development server; use https://":
    "developers.embed.problem.localhost",
  "must be a host name such as shop.example": "developers.embed.problem.hostName",
};

/** A sentence of the shared schemas (a form's own check) in the reader's language; unknown ones as written. */
export function schemaText(message: string): string {
  const id = SCHEMA_MESSAGES[message];
  return id ? t(id) : message;
}

/**
 * A failed request on the developer screens (API keys, pay button, webhooks, payment links) in the reader's
 * language (issue 37): by the server's sentence where a code has several meanings, else by its code or status;
 * the server's own (English) message only for what these screens do not know. `origins`: the websites a failed
 * save of the pay button's list sent (the server names the first bad one by its place).
 */
export function developersErrorText(
  error: unknown,
  { origins, loopbackHttp = false }: { origins?: readonly string[]; loopbackHttp?: boolean } = {},
): string {
  return apiErrorText(error, {
    sentences: SERVER_MESSAGES,
    values: { maxKeys: MAX_API_KEYS, maxEndpoints: MAX_ENDPOINTS },
    signedOut: "developers.error.signedOut",
    twoFactor: "developers.error.twoFactor",
    forbidden: "developers.error.forbidden",
    byCode: ({ code, details }) => {
      // The webhooks' refusals by their reason (server/src/modules/webhooks): a host that does not resolve, named
      // left to right; a test event to a disabled endpoint.
      const host = detailOf(details, "host");
      if (details?.reason === "host_unresolved" && host)
        return t("developers.error.hostUnresolved", { host: isolate(host, currentLocale()) });
      if (details?.reason === "endpoint_disabled") return t("developers.error.endpointDisabled");
      if (code !== "VALIDATION_ERROR") return undefined;
      const index = details?.index;
      const value = typeof index === "number" ? origins?.[index] : undefined;
      if (value !== undefined && typeof index === "number") {
        const result = normalizeEmbedOrigin(value, loopbackHttp);
        const id = "problem" in result ? ORIGIN_PROBLEMS[result.problem] : undefined;
        if (id) return t(id, { number: index + 1, value: isolate(value.trim(), currentLocale()) });
      }
      return undefined;
    },
  });
}
