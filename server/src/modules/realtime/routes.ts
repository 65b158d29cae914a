import { REALTIME_PATH } from "@common/realtime.ts";
import fastifyWebsocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import { errorBody } from "../../errors.ts";
import { isSameOrigin } from "../../lib/same-origin.ts";
import type { RealtimeHub } from "./hub.ts";

/** `/ws` on the app's own port: checks the Origin, then hands the socket to the hub. */
export async function realtimeRoutes(
  app: FastifyInstance,
  { config, hub }: { config: Config; hub: RealtimeHub },
) {
  await app.register(fastifyWebsocket, {
    options: { maxPayload: config.realtime.maxMessageBytes, perMessageDeflate: false },
  });

  app.get(
    REALTIME_PATH,
    {
      websocket: true,
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
      },
    },
    (socket, request) => hub.attach(socket, request.ip, request.cookies ?? {}),
  );
}
