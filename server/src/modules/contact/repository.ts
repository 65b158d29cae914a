import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { contactMessages } from "../../db/schema.ts";

export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type NewContactMessage = typeof contactMessages.$inferInsert;

export async function insertContactMessage(
  db: DbOrTx,
  message: NewContactMessage,
): Promise<ContactMessageRow> {
  const [row] = await db.insert(contactMessages).values(message).returning();
  if (!row) throw new Error("contact message insert returned no row");
  return row;
}

export async function markContactMessageEmailed(db: DbOrTx, id: string, at = new Date()): Promise<void> {
  await db.update(contactMessages).set({ emailedAt: at }).where(eq(contactMessages.id, id));
}

export async function findContactMessageById(db: DbOrTx, id: string): Promise<ContactMessageRow | undefined> {
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1);
  return row;
}
