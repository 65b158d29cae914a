// The embedded database on its own thread (decision 030): what crosses the thread (errors with PostgreSQL's fields,
// transactions, the order of statements) behaves as PGlite in the server's own thread did.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, rowsOf } from "../src/db/client.ts";
import * as standIn from "../src/db/pglite-on-server-thread.ts";
import { PGliteWorkerClient, pgliteDir } from "../src/db/pglite-worker-client.ts";
import { appMeta, users } from "../src/db/schema.ts";
import { isUniqueViolation } from "../src/modules/auth/service.ts";

const user = (id: string, username: string) => ({ id, username });

describe("the embedded database's thread", () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({ driver: "pglite", dataDir: null });
    await database.migrate();
  });
  afterAll(() => database.close());

  it("keeps PostgreSQL's error fields: a unique violation is recognised by its code and constraint", async () => {
    await database.db.insert(users).values(user("u-1", "Ada"));
    const error = await database.db
      .insert(users)
      .values(user("u-2", "ada"))
      .then(() => null)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isUniqueViolation(error, "users_username_lower_key")).toBe(true);
    expect(isUniqueViolation(error, "users_email_lower_key")).toBe(false);
    // The connection goes on after a failed statement.
    expect(await database.db.select({ id: users.id }).from(users)).toEqual([{ id: "u-1" }]);
  });

  it("rolls a transaction back when its callback throws, and nothing else runs inside it", async () => {
    let outsideRan = false;
    const failed = database.db
      .transaction(async (tx) => {
        await tx.insert(appMeta).values({ key: "tx-check", value: "inside" });
        // A statement sent from outside meanwhile waits until the transaction has ended (PGlite's own rule).
        const outside = database.db
          .select()
          .from(appMeta)
          .where(eq(appMeta.key, "tx-check"))
          .then((rows) => {
            outsideRan = true;
            return rows;
          });
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(outsideRan).toBe(false);
        throw Object.assign(new Error("changed my mind"), { outside });
      })
      .catch((error: Error & { outside: Promise<unknown[]> }) => error);
    const error = await failed;
    expect(error.message).toBe("changed my mind");
    // It ran after the rollback: the row was never there for anyone else.
    expect(await error.outside).toEqual([]);
    expect(await database.db.select().from(appMeta).where(eq(appMeta.key, "tx-check"))).toEqual([]);
  });

  it("commits a transaction, savepoints included, and keeps timestamps as PostgreSQL's text for drizzle", async () => {
    await database.db.transaction(async (tx) => {
      await tx.insert(appMeta).values({ key: "tx-commit", value: "kept" });
      await tx
        .transaction(async (inner) => {
          await inner.insert(appMeta).values({ key: "tx-nested", value: "dropped" });
          inner.rollback();
        })
        .catch(() => {});
    });
    const rows = await database.db.select().from(appMeta).where(eq(appMeta.key, "tx-commit"));
    expect(rows.map((r) => r.value)).toEqual(["kept"]);
    expect(rows[0]!.updatedAt).toBeInstanceOf(Date);
    expect(await database.db.select().from(appMeta).where(eq(appMeta.key, "tx-nested"))).toEqual([]);
    const raw = rowsOf<{ at: unknown }>(await database.db.execute(sql`select now() as at`));
    expect(typeof raw[0]!.at).toBe("string");
  });

  it("makes statements sent while the migrations run wait for them", async () => {
    const fresh = await openDatabase({ driver: "pglite", dataDir: null });
    try {
      const migrated = fresh.migrate();
      // Sent at once, before the first migration has even started: it reads a table the migrations create.
      const count = fresh.db.$count(users);
      await migrated;
      expect(await count).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});

describe("the server thread's stand-in for PGlite (the build's, for drizzle's driver)", () => {
  it("names the type ids as PGlite does", async () => {
    const pglite = await import("@electric-sql/pglite");
    for (const [name, id] of Object.entries(standIn.types)) {
      expect(pglite.types[name as keyof typeof pglite.types]).toBe(id);
    }
  });
});

describe("starting the thread", () => {
  it("fails every statement with PGlite's own reason when the data directory cannot be opened", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cpxtb-pglite-"));
    const notADirectory = join(dir, "file");
    writeFileSync(notADirectory, "not a database");
    const client = PGliteWorkerClient.start(notADirectory);
    const first = await client.query("select 1").catch((e: Error) => e);
    expect(first).toBeInstanceOf(Error);
    expect((first as Error).message).toMatch(/^The embedded database could not open in .*file: .*ErrnoError/);
    // Later statements fail the same way instead of waiting forever.
    const second = await client.query("select 1").catch((e: Error) => e);
    expect((second as Error).message).toBe((first as Error).message);
  });

  it("hands over the thread main.ts started ahead for the same directory, and stops one for another", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cpxtb-pglite-"));
    const first = await openDatabase({ driver: "pglite", dataDir: dir });
    await first.migrate();
    await first.close();

    const early = PGliteWorkerClient.prestart(pgliteDir(dir));
    expect(PGliteWorkerClient.start(pgliteDir(dir))).toBe(early);
    expect((await early.query<{ n: number }>("select 1 as n")).rows).toEqual([{ n: 1 }]);
    await early.close();

    const unused = PGliteWorkerClient.prestart(pgliteDir(dir));
    const inMemory = PGliteWorkerClient.start(null);
    expect(inMemory).not.toBe(unused);
    // The thread started for the other directory is closed rather than left holding it.
    await expect(unused.query("select 1")).rejects.toThrow(/stopped/);
    await inMemory.close();
  });
});
