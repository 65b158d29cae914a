import { createHash } from "node:crypto";
import { brotliCompressSync, gzipSync } from "node:zlib";

export type IndexHtml = {
  /** The bytes of each encoding the client may accept, compressed once at start. */
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** CSP source expressions ('sha256-...') of the inline scripts, so the CSP allows them and nothing else. */
  inlineScriptHashes: string[];
  /**
   * The app's stylesheet: its `<link>` tag in the HTML and its text. A server-rendered page carries the text in a
   * `<style>` instead of the tag, so its first paint waits for no request (`pageHtmlText`).
   */
  stylesheet?: { tag: string; css: string };
};

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

export function prepareIndexHtml(html: string): IndexHtml {
  const identity = Buffer.from(html, "utf8");
  const inlineScriptHashes = [...html.matchAll(INLINE_SCRIPT)]
    .map((m) => m[1] ?? "")
    .filter((body) => body.trim() !== "")
    .map((body) => `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`);
  return { identity, br: brotliCompressSync(identity), gzip: gzipSync(identity), inlineScriptHashes };
}

/** Picks the smallest encoding the client accepts (`br` > `gzip` > identity). */
export function negotiateEncoding(acceptEncoding: string | undefined): "br" | "gzip" | "identity" {
  const accepted = (acceptEncoding ?? "")
    .split(",")
    .map((part) => part.trim().split(";"))
    .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
    .map(([name]) => name?.trim().toLowerCase());
  if (accepted.includes("br")) return "br";
  if (accepted.includes("gzip")) return "gzip";
  return "identity";
}
