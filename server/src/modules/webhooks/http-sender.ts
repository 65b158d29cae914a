import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { resolveTarget, type TargetPolicy, UnsafeTargetError } from "./ssrf.ts";

export const RESPONSE_EXCERPT_BYTES = 1024;

export type SendResult =
  | { kind: "response"; statusCode: number; excerpt: string; durationMs: number }
  | { kind: "error"; error: string; retryable: boolean; durationMs: number };

export type WebhookRequest = { url: string; headers: Record<string, string>; body: string };

/**
 * POSTs one delivery: the host is resolved and every address checked (ssrf.ts), then the connection goes to the
 * checked address (a pinned `lookup`), with the URL's host name kept for TLS (SNI, certificate) and the Host
 * header. Redirects are not followed (an answer is an answer); the body read stops at 1 KB.
 */
export async function sendWebhook(
  request: WebhookRequest,
  options: { allowPrivate: TargetPolicy; timeoutMs: number },
): Promise<SendResult> {
  const started = Date.now();
  let target: Awaited<ReturnType<typeof resolveTarget>>;
  try {
    target = await resolveTarget(request.url, options.allowPrivate);
  } catch (error) {
    const unsafe = error instanceof UnsafeTargetError;
    return {
      kind: "error",
      error: unsafe ? error.message : String(error),
      // A refused address is refused again next time; a host that did not resolve may resolve later.
      retryable: unsafe ? error.retryable : true,
      durationMs: Date.now() - started,
    };
  }
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(
      target.url,
      {
        method: "POST",
        lookup: pinned,
        agent: false,
        headers: {
          ...request.headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(request.body).toString(),
          "user-agent": "CPXTB-Pay-Webhooks/1",
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({
            kind: "response",
            statusCode: res.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8"),
            durationMs: Date.now() - started,
          });
        res.on("data", (chunk: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on("end", done);
        res.on("error", done);
        res.on("close", done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${Math.round(options.timeoutMs / 1000)} s`));
    }, options.timeoutMs);
    req.on("error", (error) =>
      finish({
        kind: "error",
        error: error.message.slice(0, 300),
        retryable: true,
        durationMs: Date.now() - started,
      }),
    );
    req.end(request.body);
  });
}
