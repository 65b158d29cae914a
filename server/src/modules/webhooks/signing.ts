import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";
const SECRET_BYTES = 32;

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export function generateSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64-decoded part after `whsec_`. */
export function signature(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  const mac = createHmac("sha256", key).update(`${messageId}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per secret that signs now, space-separated. */
export function signatureHeader(secrets: string[], messageId: string, timestamp: number, body: string) {
  return secrets.map((secret) => signature(secret, messageId, timestamp, body)).join(" ");
}
