import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { negotiateEncoding } from "../web/index-html.ts";

/** The pay button's script as the build made it (`dist/embed/embed.js`, beside `dist/client`), compressed once. */
export type EmbedScript = { version: string; identity: Buffer; gzip: Buffer; br: Buffer };

/** The stable URL merchants paste: browsers check back after this long (and get a 304 while it is unchanged). */
export const EMBED_SCRIPT_SHORT_CACHE = "public, max-age=300, stale-while-revalidate=86400";
/** `/embed.js?v={version}` names one content: cached for a year. */
export const EMBED_SCRIPT_LONG_CACHE = "public, max-age=31536000, immutable";

export function embedScriptPath(clientDist: string) {
  return join(dirname(clientDist), "embed", "embed.js");
}

/** The built script, or null when there is none (API-only tests, `npm run dev` before a build). */
export function loadEmbedScript(clientDist: string): EmbedScript | null {
  const path = embedScriptPath(clientDist);
  if (!existsSync(path)) return null;
  const identity = readFileSync(path);
  return {
    // The content's hash: the ETag, and the `?v=` that may be cached forever.
    version: createHash("sha256").update(identity).digest("hex").slice(0, 12),
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity),
  };
}

/**
 * Sends the script (decision 035). `/embed.js` is the stable address (5 minutes, then revalidated by ETag);
 * `/embed.js?v={version}` with the current version is immutable; any other `v` gets the current script with the
 * short cache, so an old pinned version never stays cached as if it were that version.
 */
export function sendEmbedScript(request: FastifyRequest, reply: FastifyReply, script: EmbedScript) {
  const etag = `"${script.version}"`;
  const v = (request.query as { v?: unknown } | undefined)?.v;
  reply
    .header("Content-Type", "text/javascript; charset=utf-8")
    .header("Cache-Control", v === script.version ? EMBED_SCRIPT_LONG_CACHE : EMBED_SCRIPT_SHORT_CACHE)
    .header("ETag", etag)
    .header("Vary", "Accept-Encoding")
    .header("X-Embed-Version", script.version);
  if (request.headers["if-none-match"]?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return reply.status(304).send();
  }
  const encoding = negotiateEncoding(request.headers["accept-encoding"]);
  if (encoding !== "identity") reply.header("Content-Encoding", encoding);
  return reply.send(encoding === "br" ? script.br : encoding === "gzip" ? script.gzip : script.identity);
}
