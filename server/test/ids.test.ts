import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/client.ts";
import { createId, createReference, idTimePrefix } from "../src/lib/ids.ts";
import { createTestDatabase } from "./helpers.ts";

describe("payment references", () => {
  it("are 22 base64url characters, never starting with '-' or '_', and do not repeat", () => {
    const references = Array.from({ length: 20_000 }, createReference);
    for (const reference of references) expect(reference).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{21}$/);
    expect(new Set(references).size).toBe(references.length);
  });
});

describe("time-sortable ids", () => {
  it("start with the given time's prefix", () => {
    const at = new Date("2024-05-01T12:34:56.789Z");
    expect(createId("pay", at)).toMatch(/^pay_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(createId("pay", at).startsWith(idTimePrefix("pay", at))).toBe(true);
    expect(idTimePrefix("pay", at)).toBe(idTimePrefix("pay", at.getTime()));
    expect(() => idTimePrefix("pay", -1)).toThrow(RangeError);
    expect(() => idTimePrefix("pay", 1.5)).toThrow(RangeError);
  });

  it("made in one millisecond, sort in the order they were made (a clock held still, a burst)", () => {
    const at = new Date("2024-05-01T12:34:56.789Z");
    const ids = Array.from({ length: 1000 }, () => createId("pay", at));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^pay_[0-9a-hjkmnp-tv-z]{26}$/);
    // A new millisecond starts from a random tail again, after every id of the one before.
    const next = createId("pay", at.getTime() + 1);
    expect(next > ids.at(-1)!).toBe(true);
  });

  // `listPaymentsOfOwner` bounds the id by the time prefixes of a window: that is exact only if the database
  // compares ids as their times compare, prefixes included.
  it("sort as their times in the database's collation of payments.id, a time's prefix before its ids", async () => {
    // Every character of the alphabet at every position of the time, and times around now.
    const times = [0, 32 ** 10 - 1, Date.now(), Date.now() + 1, Date.now() - 31, Date.now() - 32];
    for (let position = 0; position < 10; position++)
      for (let digit = 0; digit < 32; digit++) times.push(digit * 32 ** position + (position > 0 ? 17 : 0));
    const entries = times.flatMap((ms) => [
      { text: idTimePrefix("pay", ms), ms, kind: 0 },
      { text: createId("pay", ms), ms, kind: 1 },
    ]);
    // By time, a time's prefix first (it is shorter than its ids), ids of the same time by their random tails.
    const byTime = [...entries]
      .sort((a, b) => a.ms - b.ms || a.kind - b.kind || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
      .map((e) => e.text);
    expect(entries.map((e) => e.text).sort()).toEqual(byTime);

    const database = await createTestDatabase();
    try {
      const { db } = database;
      const [column] = rowsOf<{ collation: string }>(
        await db.execute(sql`select c.collname as collation from pg_attribute a
          join pg_collation c on c.oid = a.attcollation
          where a.attrelid = 'payments'::regclass and a.attname = 'id'`),
      );
      // The column, and so its index and the comparisons with parameters, use the database's collation.
      expect(column!.collation).toBe("default");
      // Collations a production database may be created with, where this server has them (PGlite has none).
      const others = rowsOf<{ name: string }>(
        await db.execute(
          sql`select collname as name from pg_collation where collname in ('en-US-x-icu', 'und-x-icu', 'en_US.utf8')`,
        ),
      ).map((r) => r.name);
      const values = sql.join(
        entries.map((e) => sql`(${e.text})`),
        sql`, `,
      );
      for (const collation of ["default", ...others]) {
        const order = collation === "default" ? sql`t` : sql`t collate ${sql.identifier(collation)}`;
        const sorted = rowsOf<{ t: string }>(
          await db.execute(sql`select t from (values ${values}) as v(t) order by ${order}`),
        ).map((r) => r.t);
        expect(sorted, collation).toEqual(byTime);
      }
    } finally {
      await database.close();
    }
  });
});
