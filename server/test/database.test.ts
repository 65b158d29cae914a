import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, rowsOf } from "../src/db/client.ts";
import { appMeta } from "../src/db/schema.ts";
import { createTestDatabase } from "./helpers.ts";

describe("embedded database", () => {
  it("keeps its data across a restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-data-"));
    const first = await openDatabase({ driver: "pglite", dataDir });
    await first.migrate();
    await first.db.insert(appMeta).values({ key: "restart-check", value: "kept" });
    await first.close();

    const second = await openDatabase({ driver: "pglite", dataDir });
    await second.migrate();
    expect(await second.pendingMigrations()).toEqual([]);
    const rows = await second.db.select().from(appMeta).where(eq(appMeta.key, "restart-check"));
    expect(rows.map((r) => r.value)).toEqual(["kept"]);
    await second.close();
  });

  it("reports migrations that were not applied", async () => {
    const database = await openDatabase({ driver: "pglite", dataDir: null });
    expect((await database.pendingMigrations()).length).toBeGreaterThan(0);
    await database.migrate();
    expect(await database.pendingMigrations()).toEqual([]);
    await database.close();
  });
});

describe.skipIf(!process.env.DATABASE_URL)("PostgreSQL connections", () => {
  it("run without JIT compilation (seconds of compiling for a statement of milliseconds)", async () => {
    const database = await createTestDatabase();
    try {
      // Several at once, so more than one connection of the pool answers.
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => database.db.execute(sql`select current_setting('jit') as jit`)),
      );
      expect(answers.flatMap((a) => rowsOf<{ jit: string }>(a).map((r) => r.jit))).toEqual(
        Array(4).fill("off"),
      );
    } finally {
      await database.close();
    }
  });
});
