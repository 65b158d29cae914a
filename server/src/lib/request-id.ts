import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Keeps a load balancer's id when it is well formed so one request can be followed across systems. */
export function generateRequestId(req: IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  if (typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming)) return incoming;
  return randomUUID();
}
