import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";

export type DrainLimits = {
  /** At most this many bytes of an unread body are read and thrown away before answering. */
  maxBytes: number;
  /** And for at most this long. */
  maxMs: number;
};

/**
 * Reads and throws away the rest of a request body nobody will read, up to the limits. Resolves once it has
 * all arrived (true) or a limit was met or the connection went away (false).
 */
export function discardBody(raw: IncomingMessage, limits: DrainLimits): Promise<boolean> {
  if (isRead(raw)) return Promise.resolve(true);
  if (raw.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      raw.off("data", onData);
      raw.off("end", onEnd);
      raw.off("close", onClose);
      raw.off("error", onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limits.maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(isRead(raw));
    const timer = setTimeout(() => finish(false), limits.maxMs);
    timer.unref();
    raw.on("data", onData);
    raw.on("end", onEnd);
    raw.on("close", onClose);
    raw.on("error", onClose);
    raw.resume();
  });
}

/**
 * Whether the whole body has arrived (`complete`) or been read to its end (`readableEnded`: an injected request,
 * which has no parser to set `complete`).
 */
function isRead(raw: IncomingMessage): boolean {
  return raw.complete || raw.readableEnded;
}

/** Whether the request announces a body (a length above zero, or chunks). */
function hasBody(raw: IncomingMessage): boolean {
  const length = raw.headers["content-length"];
  return (length !== undefined && length !== "0") || raw.headers["transfer-encoding"] !== undefined;
}

/**
 * An answer given before the request's body was read (413 over the limit, 415, a refusal in `onRequest`) waits
 * until the rest of the body has arrived and been discarded, within bounds. Closing the connection while the
 * client is still sending resets it: the client then sees EPIPE or ECONNRESET instead of the answer, which the
 * kernel drops with the reset. A body announced beyond the bounds is not waited for (the answer goes at once).
 */
export function registerBodyDrain(app: FastifyInstance, limits: DrainLimits) {
  app.addHook("onSend", async (request, _reply, payload) => {
    const raw = request.raw;
    if (isRead(raw) || !hasBody(raw)) return payload;
    const declared = Number(raw.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limits.maxBytes) return payload;
    await discardBody(raw, limits);
    return payload;
  });
}
