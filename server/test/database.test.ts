import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/client.ts";
import { appMeta } from "../src/db/schema.ts";

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
