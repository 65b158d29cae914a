import { contactResponse } from "@common/contact.ts";
import { apiErrorBody } from "@common/errors.ts";
import * as z from "zod";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { resolveAuth, SESSION_COOKIE } from "../auth/session.ts";
import { type ContactDeps, parseContactRequest, submitContactMessage } from "./service.ts";

export async function contactRoutes(app: FastifyZod, deps: ContactDeps) {
  app.post(
    "/api/contact",
    {
      // Its own, tight rate-limit group: over it, the sender gets the security challenge.
      config: { rateLimit: "contact" },
      schema: {
        // Validated in the handler with the same schema, so each field's problem comes back by name.
        body: z.looseObject({}),
        response: { 201: contactResponse, 400: apiErrorBody },
      },
    },
    async (request, reply) => {
      const input = parseContactRequest(request.body);
      const auth = request.cookies?.[SESSION_COOKIE] ? await resolveAuth(deps.db, request, reply) : null;
      const row = await submitContactMessage(deps, input, { userId: auth?.user.id ?? null, ip: request.ip });
      return reply.status(201).send({
        id: row.id,
        message: "Thank you, your message has reached the team. We usually answer within two business days.",
      });
    },
  );
}
