import type { FastifyRequest } from "fastify";
import type { Config } from "../config.ts";

type OriginConfig = Pick<Config, "publicUrl" | "publicUrlFromListen">;

/**
 * The hosts (host:port) the site answers as: PUBLIC_URL's host only. When the origin is the loopback listen
 * address (no PUBLIC_URL), `localhost`, `127.0.0.1` and `[::1]` on that port name the same server, reachable
 * from this machine alone, so each is accepted (decision 010). Never the request's own Host header.
 */
export function acceptedHosts(config: OriginConfig): string[] {
  const url = new URL(config.publicUrl);
  if (!config.publicUrlFromListen || url.hostname !== "localhost") return [url.host];
  const port = url.port ? `:${url.port}` : "";
  return [url.host, `127.0.0.1${port}`, `[::1]${port}`];
}

/** Whether cookies must be Secure and HSTS sent: the public origin is https. */
export function isHttpsOrigin(config: Pick<Config, "publicUrl">): boolean {
  return config.publicUrl.startsWith("https:");
}

/**
 * The origin to put in a link the requesting page itself uses right away (for example the development RPC
 * URL the page's wallet code fetches): the request's host when it is one of the accepted names of this site,
 * otherwise the public origin. Links that travel (emails, payment links) always use `config.publicUrl`.
 */
export function requestOrigin(config: OriginConfig, request: FastifyRequest): string {
  const host = request.host.toLowerCase();
  if (host !== new URL(config.publicUrl).host && acceptedHosts(config).includes(host)) {
    return `${new URL(config.publicUrl).protocol}//${host}`;
  }
  return config.publicUrl;
}
