import { type EmbedSettings, normalizeEmbedOrigin } from "@common/embed.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { type AuditContext, recordAudit } from "../audit/record.ts";
import { ROLE_RULES } from "../merchants/access.ts";
import * as repo from "./repository.ts";

/**
 * The origins as the merchant gave them, each normalized (decision 035), duplicates dropped, order kept. Any origin
 * that is not one is a 400 naming it: nothing is stored then.
 */
export function normalizeEmbedOrigins(values: string[], allowLoopbackHttp: boolean): string[] {
  const origins: string[] = [];
  values.forEach((value, index) => {
    const result = normalizeEmbedOrigin(value, allowLoopbackHttp);
    if ("problem" in result) {
      throw new AppError("VALIDATION_ERROR", `Website ${index + 1}, "${value.trim()}", ${result.problem}.`, {
        index,
      });
    }
    if (!origins.includes(result.origin)) origins.push(result.origin);
  });
  return origins;
}

const lostAccess = () => new AppError("FORBIDDEN", "You no longer have access to this business.");

export async function getEmbedSettings(
  db: Db,
  userId: string,
  allowLoopbackHttp: boolean,
): Promise<EmbedSettings> {
  const origins = await repo.findEmbedOrigins(db, { userId, roles: ROLE_RULES.embedOrigins });
  if (!origins) throw lostAccess();
  return { origins, loopbackHttpAllowed: allowLoopbackHttp };
}

export async function updateEmbedOrigins(
  db: Db,
  actor: AuditContext & { userId: string },
  values: string[],
  allowLoopbackHttp: boolean,
): Promise<EmbedSettings> {
  const origins = normalizeEmbedOrigins(values, allowLoopbackHttp);
  const scope = { userId: actor.userId, roles: ROLE_RULES.embedOrigins };
  return db.transaction(async (tx) => {
    const before = await repo.findEmbedOrigins(tx, scope);
    const stored = before ? await repo.setEmbedOrigins(tx, scope, origins) : undefined;
    if (!before || !stored) throw lostAccess();
    if (before.join(" ") !== stored.origins.join(" ")) {
      await recordAudit(tx, actor, {
        action: "merchant.embed_origins_changed",
        businessId: stored.id,
        metadata: { from: before, to: stored.origins },
      });
    }
    return { origins: stored.origins, loopbackHttpAllowed: allowLoopbackHttp };
  });
}
