import {
  embedOriginQuery,
  embedOriginResponse,
  embedOriginsRequest,
  embedSettingsResponse,
  normalizeEmbedOrigin,
} from "@common/embed.ts";
import { linkSlugParams } from "@common/links.ts";
import { referenceParams } from "@common/payments.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { requestOrigin } from "../../lib/public-origin.ts";
import type { SecurityHeaders } from "../../lib/security-headers.ts";
import { ownerContext } from "../audit/record.ts";
import { authOf, ROLE_RULES } from "../merchants/access.ts";
import * as repo from "./repository.ts";
import { type EmbedScript, sendEmbedScript } from "./script.ts";
import * as service from "./service.ts";

export type EmbedRoutesOptions = {
  db: Db;
  config: Config;
  headers: SecurityHeaders;
  script: EmbedScript | null;
};

const EMBED_PAY_PATH = /^\/pay\/([^/]+)\/?$/;
const EMBED_LINK_PATH = /^\/l\/([^/]+)\/?$/;

/** The path's one segment matched by `pattern`, decoded, when the request asks for the embed (`embed=1`). */
function embedSegment(pattern: RegExp, path: string, search: string): string | null {
  const segment = pattern.exec(path)?.[1];
  if (segment === undefined || new URLSearchParams(search).get("embed") !== "1") return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Whether a page request asks for the embeddable checkout: `/pay/{reference}?embed=1` (decision 035). */
export function embedCheckoutReference(path: string, search: string): string | null {
  const reference = embedSegment(EMBED_PAY_PATH, path, search);
  return reference !== null && referenceParams.safeParse({ reference }).success ? reference : null;
}

/** Whether a page request asks for a payment link's embeddable page: `/l/{slug}?embed=1` (decision 035). */
export function embedLinkSlug(path: string, search: string): string | null {
  const slug = embedSegment(EMBED_LINK_PATH, path, search);
  return slug !== null && linkSlugParams.safeParse({ slug }).success ? slug : null;
}

/**
 * Lets the origins the payment's business lists frame this response of its checkout; every other page (and this
 * one for a business that lists none, or an unknown payment) keeps `frame-ancestors 'none'`.
 */
export function allowCheckoutFraming(
  { db, headers }: Pick<EmbedRoutesOptions, "db" | "headers">,
  reply: FastifyReply,
  reference: string,
) {
  return allowFramingBy(headers, reply, () => repo.embedOriginsOfPayment(db, reference));
}

/** The same for a payment link's page: its business's origins (an unknown link stays unframeable). */
export function allowLinkFraming(
  { db, headers }: Pick<EmbedRoutesOptions, "db" | "headers">,
  reply: FastifyReply,
  slug: string,
) {
  return allowFramingBy(headers, reply, () => repo.embedOriginsOfLink(db, slug));
}

async function allowFramingBy(
  headers: SecurityHeaders,
  reply: FastifyReply,
  load: () => Promise<string[] | null>,
) {
  try {
    const origins = await load();
    // 'self': the developers page's live preview frames it too (the product's own pages, never a third party's).
    headers.allowFraming(reply, origins ? ["'self'", ...origins] : []);
  } catch (error) {
    // The database away: the page is served (it says what is wrong) and stays unframeable.
    reply.log.warn(
      { err: error },
      "embed: the allowed origins could not be read; the checkout stays unframed",
    );
  }
}

/** The pay button: its script, the merchant's allowed origins, and the checkout's check of whom it reports to. */
export async function embedRoutes(app: FastifyZod, { db, config, headers, script }: EmbedRoutesOptions) {
  const allowLoopbackHttp = config.embed.allowLoopbackHttp;

  if (script) {
    // Loaded by other sites' pages: a cross-origin script (CORP), never framed, small and cached.
    app.get("/embed.js", (request, reply) => {
      headers.allowCrossOriginScript(reply);
      return sendEmbedScript(request, reply, script);
    });
  }

  app.get(
    "/api/merchant/embed",
    {
      config: { merchant: { roles: ROLE_RULES.embedOrigins } },
      schema: { response: { 200: embedSettingsResponse } },
    },
    async (request) => service.getEmbedSettings(db, authOf(request).user.id, allowLoopbackHttp),
  );

  app.put(
    "/api/merchant/embed/origins",
    {
      config: { merchant: { roles: ROLE_RULES.embedOrigins } },
      schema: { body: embedOriginsRequest, response: { 200: embedSettingsResponse } },
    },
    async (request) =>
      service.updateEmbedOrigins(
        db,
        ownerContext(request, authOf(request)),
        request.body.origins,
        allowLoopbackHttp,
      ),
  );

  // The embedded checkout posts its result only to an origin its business lists (the page that framed it, or
  // the one that opened it on a phone): the origin, normalized, or null.
  const listedOrigin = (
    request: FastifyRequest,
    origins: string[] | null,
    origin: string,
  ): { origin: string | null } => {
    const given = normalizeEmbedOrigin(origin, true);
    if (!origins || !("origin" in given)) return { origin: null };
    // The product's own origin (as this browser names it): the developers page's live preview.
    const own = new URL(requestOrigin(config, request)).origin;
    return { origin: origins.includes(given.origin) || given.origin === own ? given.origin : null };
  };

  app.get(
    "/api/payments/public/:reference/embed-origin",
    {
      config: { rateLimit: "public" },
      schema: {
        params: referenceParams,
        querystring: embedOriginQuery,
        response: { 200: embedOriginResponse },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", "no-store");
      const origins = await repo.embedOriginsOfPayment(db, request.params.reference);
      return listedOrigin(request, origins, request.query.origin);
    },
  );

  // A payment link's page in the overlay asks the same before it talks to the host page (Escape closes it).
  app.get(
    "/api/links/public/:slug/embed-origin",
    {
      config: { rateLimit: "public" },
      schema: {
        params: linkSlugParams,
        querystring: embedOriginQuery,
        response: { 200: embedOriginResponse },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", "no-store");
      const origins = await repo.embedOriginsOfLink(db, request.params.slug);
      return listedOrigin(request, origins, request.query.origin);
    },
  );
}
