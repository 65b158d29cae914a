import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { REALTIME_PATH } from "@common/realtime.ts";
import fastifyWebsocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { WebSocket } from "ws";
import type { Config } from "../../config.ts";
import { errorBody } from "../../errors.ts";
import { isHttpsOrigin } from "../../lib/public-origin.ts";
import { isSameOrigin } from "../../lib/same-origin.ts";
import type { RealtimeHub } from "./hub.ts";

/**
 * Names a browser, not a person's identity: set on the first /ws handshake and sent back with every later one,
 * so the tabs of one browser count as one person online. Random, httpOnly, never tied to an account.
 */
export const BROWSER_COOKIE = "cpxtb_browser";
const BROWSER_ID = /^[A-Za-z0-9_-]{22}$/;
const BROWSER_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** `/ws` on the app's own port: checks the Origin and the address's connection cap, then hands the socket to the hub. */
export async function realtimeRoutes(
  app: FastifyInstance,
  { config, hub }: { config: Config; hub: RealtimeHub },
) {
  await app.register(fastifyWebsocket, {
    options: { maxPayload: config.realtime.maxMessageBytes, perMessageDeflate: false },
  });

  // Browser ids handed out by this handshake, written into its 101 response as a cookie.
  const newBrowserIds = new WeakMap<IncomingMessage, string>();
  const cookieAttributes = `Path=/; Max-Age=${BROWSER_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${
    isHttpsOrigin(config) ? "; Secure" : ""
  }`;
  app.websocketServer.on("headers", (headers: string[], request: IncomingMessage) => {
    const id = newBrowserIds.get(request);
    if (id) headers.push(`Set-Cookie: ${BROWSER_COOKIE}=${id}; ${cookieAttributes}`);
  });
  const cap = config.realtime.maxConnectionsPerAddress;
  const tooMany = "Too many live connections from your address. Close some tabs and try again.";

  app.route({
    method: "GET",
    url: REALTIME_PATH,
    schema: { hide: true },
    // Browsers always send Origin on a WebSocket handshake; a foreign one is another site using our
    // visitors' cookies (cross-site WebSocket hijacking). Clients without Origin are not browsers.
    preValidation: async (request, reply) => {
      const origin = request.headers.origin;
      if (origin && !isSameOrigin(origin, request.headers.host, config.publicUrl)) {
        request.log.warn({ origin }, "ws: connection from a foreign origin refused");
        return reply
          .status(403)
          .send(errorBody("FORBIDDEN", "This origin may not open the live connection."));
      }
      // Refused before the upgrade: one address cannot hold the instance's sockets or inflate the count.
      if (hub.connectionsFrom(request.ip) >= cap) {
        request.log.warn({ ip: request.ip }, "ws: per-address connection cap reached");
        return reply.status(429).header("Retry-After", "30").send(errorBody("RATE_LIMITED", tooMany));
      }
      if (!BROWSER_ID.test(request.cookies?.[BROWSER_COOKIE] ?? "")) {
        newBrowserIds.set(request.raw, randomBytes(16).toString("base64url"));
      }
    },
    // A plain GET (no upgrade) is told what this address is, rather than an empty 404.
    handler: async (_request, reply) =>
      reply
        .status(426)
        .header("Upgrade", "websocket")
        .header("Connection", "Upgrade")
        .send(errorBody("UPGRADE_REQUIRED", "This address is the live connection: open it as a WebSocket.")),
    wsHandler: (socket, request) => {
      // Upgrades in flight together can pass the check above at once: the cap holds here too.
      if (hub.connectionsFrom(request.ip) >= cap) return socket.close(1013, "Too many connections");
      const browserId = newBrowserIds.get(request.raw) ?? request.cookies?.[BROWSER_COOKIE];
      releaseUpgradeRequest(socket, request.raw);
      // The hub's own 'error' listener takes over from the plugin's (released above).
      hub.attach(socket, request.ip, request.cookies ?? {}, browserId);
    },
  });
}

/**
 * Lets the upgrade's HTTP objects go once the socket is the hub's. @fastify/websocket answers the upgrade through a
 * `ServerResponse` that stays the TCP socket's current message, and its 'error' listener closes over the Fastify
 * request and reply: together about 4 KB per connection, for as long as the connection lives (some 40 MB at 10,000
 * connections; issue 14 gives /ws 500 MB for that many). The hub listens for errors itself.
 */
function releaseUpgradeRequest(socket: WebSocket, raw: IncomingMessage) {
  socket.removeAllListeners("error");
  const tcp = raw.socket as (IncomingMessage["socket"] & { _httpMessage?: ServerResponse | null }) | null;
  const response = tcp?._httpMessage;
  if (tcp && response) response.detachSocket(tcp);
}
