import type { FastifyReply, FastifyRequest } from "fastify";
import type { DbOrTx } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { type Auth, resolveAuth } from "../auth/session.ts";

export async function requireAuth(db: DbOrTx, request: FastifyRequest, reply: FastifyReply): Promise<Auth> {
  const auth = await resolveAuth(db, request, reply);
  if (!auth) throw new AppError("UNAUTHENTICATED", "You are not signed in.");
  return auth;
}
