import { eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import {
  apiIdempotencyKeys,
  sessions,
  walletChallenges,
  webhookDeliveries,
  webhookEndpoints,
} from "../src/db/schema.ts";
import { createId } from "../src/lib/ids.ts";
import { pruneExpiredRows, RETENTION } from "../src/modules/maintenance/retention.ts";
import { createTestApp } from "./helpers.ts";
import { api, createMerchant } from "./payment-helpers.ts";

const app = await createTestApp();
const db = app.database.db;
afterAll(() => app.close());

const HOUR = 3_600_000;

describe("retention", () => {
  it("deletes only what is past its retention, and never a pending delivery", async () => {
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const merchant = await createMerchant(app);
    const { id: userId } = (await api(app, merchant.cookie).get("/api/user")).json() as { id: string };

    const keys = [
      { id: createId("idk"), createdAt: ago(RETENTION.idempotencyKeys + HOUR), kept: false },
      { id: createId("idk"), createdAt: ago(RETENTION.idempotencyKeys - HOUR), kept: true },
    ];
    await db.insert(apiIdempotencyKeys).values(
      keys.map((k, i) => ({
        id: k.id,
        merchantId: merchant.id,
        key: `key-${i}`,
        requestHash: "x",
        createdAt: k.createdAt,
      })),
    );

    const endpointId = createId("whe");
    await db.insert(webhookEndpoints).values({
      id: endpointId,
      merchantId: merchant.id,
      url: "https://example.com/hook",
      events: ["payment.completed"],
      secret: "whsec_test",
    });
    const old = ago(RETENTION.finishedWebhookDeliveries + HOUR);
    const deliveries = [
      { status: "delivered" as const, createdAt: old, kept: false },
      { status: "failed" as const, createdAt: old, kept: false },
      { status: "pending" as const, createdAt: old, kept: true },
      { status: "delivered" as const, createdAt: ago(HOUR), kept: true },
    ].map((d) => ({ ...d, id: createId("whd") }));
    await db.insert(webhookDeliveries).values(
      deliveries.map((d) => ({
        id: d.id,
        messageId: `msg_${d.id}`,
        endpointId,
        merchantId: merchant.id,
        eventType: "payment.completed",
        body: "{}",
        status: d.status,
        createdAt: d.createdAt,
      })),
    );

    const sessionRows = [
      { expiresAt: ago(RETENTION.expiredSessions + HOUR), kept: false },
      { expiresAt: ago(HOUR), kept: true },
    ].map((s) => ({ ...s, id: createId("ses") }));
    await db
      .insert(sessions)
      .values(
        sessionRows.map((s) => ({ id: s.id, tokenHash: `hash_${s.id}`, userId, expiresAt: s.expiresAt })),
      );
    const challenges = [
      { expiresAt: ago(RETENTION.expiredWalletChallenges + HOUR), kept: false },
      { expiresAt: new Date(now.getTime() + HOUR), kept: true },
    ].map((c) => ({ ...c, id: createId("wch") }));
    await db.insert(walletChallenges).values(
      challenges.map((c) => ({
        id: c.id,
        userId,
        address: merchant.wallet.address,
        nonce: `nonce_${c.id}`,
        message: "m",
        expiresAt: c.expiresAt,
      })),
    );

    const deleted = await pruneExpiredRows(db, now);
    expect(deleted).toMatchObject({
      idempotencyKeys: 1,
      finishedWebhookDeliveries: 2,
      expiredSessions: 1,
      expiredWalletChallenges: 1,
    });

    const left = async <T extends { id: string }>(
      rows: T[],
      read: (ids: string[]) => Promise<{ id: string }[]>,
    ) => (await read(rows.map((r) => r.id))).map((r) => r.id).sort();
    const expected = (rows: { id: string; kept: boolean }[]) =>
      rows
        .filter((r) => r.kept)
        .map((r) => r.id)
        .sort();
    expect(
      await left(keys, (ids) =>
        db
          .select({ id: apiIdempotencyKeys.id })
          .from(apiIdempotencyKeys)
          .where(inArray(apiIdempotencyKeys.id, ids)),
      ),
    ).toEqual(expected(keys));
    expect(
      await left(deliveries, (ids) =>
        db
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(inArray(webhookDeliveries.id, ids)),
      ),
    ).toEqual(expected(deliveries));
    expect(
      await left(sessionRows, (ids) =>
        db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.id, ids)),
      ),
    ).toEqual(expected(sessionRows));
    expect(
      await left(challenges, (ids) =>
        db
          .select({ id: walletChallenges.id })
          .from(walletChallenges)
          .where(inArray(walletChallenges.id, ids)),
      ),
    ).toEqual(expected(challenges));
    // The merchant's own session (the test's cookie) is untouched, and a second pass finds nothing more.
    expect((await api(app, merchant.cookie).get("/api/user")).statusCode).toBe(200);
    expect(Object.values(await pruneExpiredRows(db, now)).every((n) => n === 0)).toBe(true);
    expect(await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId))).toHaveLength(
      1,
    );
  });
});
