import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { Config } from "../config.ts";
import { PGliteWorkerClient, pgliteDir } from "./pglite-worker-client.ts";
import * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: repository functions take either so one transaction can span calls. */
export type DbOrTx = Pick<Db, "select" | "insert" | "update" | "delete" | "execute" | "transaction">;

export type Database = {
  db: Db;
  driver: "pglite" | "pg";
  migrate(): Promise<void>;
  /** Names of the migrations in the folder that the database has not applied (empty when up to date). */
  pendingMigrations(): Promise<string[]>;
  ping(): Promise<void>;
  /**
   * A session-level advisory lock on its own connection (PostgreSQL), held until released or until that
   * connection dies; null when another holder has it. PGlite is one process: always granted.
   */
  tryLock(key: bigint): Promise<DatabaseLock | null>;
  close(): Promise<void>;
};

export type DatabaseLock = {
  /** Checks the lock's connection still answers (a dead connection has lost the lock). */
  check(): Promise<boolean>;
  release(): Promise<void>;
};

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
// Any fixed 64-bit number: serialises migrations of several instances starting at once.
const MIGRATION_LOCK_ID = 7_301_155_220_001n;

export type DatabaseOptions = (
  | { driver: "pg"; url: string; poolSize?: number }
  | { driver: "pglite"; dataDir: string | null }
) & {
  /**
   * Called with every statement the application sends through drizzle and its parameters (benchmarks and tests
   * count them, or EXPLAIN them).
   */
  onStatement?: (sql: string, params: unknown[]) => void;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const onStatement = options.onStatement;
  const logger = onStatement
    ? { logQuery: (query: string, params: unknown[]) => onStatement(query, params) }
    : undefined;
  if (options.driver === "pg") {
    // Loaded only here: the embedded server never parses PostgreSQL's client.
    const [{ default: pg }, { drizzle: drizzleNodePg }, { migrate: migrateNodePg }] = await Promise.all([
      import("pg"),
      import("drizzle-orm/node-postgres"),
      import("drizzle-orm/node-postgres/migrator"),
    ]);
    // A database that does not answer fails a request after 5 s (503) instead of holding it forever.
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      // No JIT compilation: every statement of the app is short, and the planner's estimate of a few (a summary's
      // range of days joined with its sums) passes jit_above_cost, where compiling took 3 s for a 70 ms query.
      options: "-c jit=off",
    });
    // An idle client that loses its connection emits 'error' on the pool; without a listener that kills the process.
    pool.on("error", () => {});
    const db = drizzleNodePg(pool, { schema, logger }) as unknown as Db;
    return {
      db,
      driver: "pg",
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID.toString()]);
          await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
        } finally {
          await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID.toString()]).catch(() => {});
          client.release();
        }
      },
      pendingMigrations: () => pendingMigrations(db),
      async ping() {
        await pool.query("select 1");
      },
      async tryLock(key) {
        const client = await pool.connect();
        let lost = false;
        const onError = () => {
          lost = true;
        };
        // The pooled client is reused: its listener goes with each attempt (a standby tries every few seconds).
        client.on("error", onError);
        try {
          const { rows } = await client.query<{ ok: boolean }>("select pg_try_advisory_lock($1) as ok", [
            key.toString(),
          ]);
          if (!rows[0]?.ok) {
            client.off("error", onError);
            client.release();
            return null;
          }
        } catch (error) {
          client.off("error", onError);
          client.release(true);
          throw error;
        }
        let released = false;
        return {
          async check() {
            if (lost || released) return false;
            try {
              await client.query("select 1");
              return true;
            } catch {
              lost = true;
              return false;
            }
          },
          async release() {
            if (released) return;
            released = true;
            await client.query("select pg_advisory_unlock($1)", [key.toString()]).catch(() => {});
            client.off("error", onError);
            client.release(lost);
          },
        };
      },
      close: () => pool.end(),
    };
  }

  // PGlite on its own thread (decision 030): its start overlaps the server's; once open, each statement is answered
  // before the call returns, as when PGlite ran in this thread.
  let dataDir: string | null = null;
  if (options.dataDir) {
    await mkdir(options.dataDir, { recursive: true });
    dataDir = pgliteDir(options.dataDir);
  }
  // Returns while PGlite is still opening: statements wait for it in the thread (its failure fails them).
  const client = PGliteWorkerClient.start(dataDir);
  // drizzle's PGlite driver calls query and transaction, which the worker's client answers as PGlite does.
  const pglite = client as unknown as PGlite;
  const db = drizzlePglite(pglite, { schema, logger }) as unknown as Db;
  return {
    db,
    driver: "pglite",
    // The application's statements wait until the migrations have run (a start builds the app meanwhile).
    migrate: () =>
      client.hold((direct) => migratePglite(drizzlePglite(direct, { schema }), { migrationsFolder })),
    pendingMigrations: () => pendingMigrations(db),
    async ping() {
      await client.query("select 1");
    },
    async tryLock() {
      return { check: async () => true, release: async () => {} };
    },
    close: () => client.close(),
  };
}

/** The configured database (PostgreSQL with DATABASE_URL, else PGlite under DATA_DIR), not migrated yet. */
export function openConfigured(config: Pick<Config, "databaseUrl" | "dataDir">): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({ driver: "pg", url: config.databaseUrl })
    : openDatabase({ driver: "pglite", dataDir: config.dataDir });
}

/** The configured database, migrated. */
export async function openConfiguredDatabase(
  config: Pick<Config, "databaseUrl" | "dataDir">,
): Promise<Database> {
  const database = await openConfigured(config);
  await database.migrate();
  return database;
}

/**
 * The migrations this build ships (file names' times and hashes), read once per process: `GET /api/ready` asks at
 * every call (each open dashboard every 15 s), and the files cannot change under a running server.
 */
let shippedMigrations: Promise<{ hash: string; folderMillis: number }[]> | undefined;

async function pendingMigrations(db: Db): Promise<string[]> {
  shippedMigrations ??= import("drizzle-orm/migrator").then(({ readMigrationFiles }) =>
    readMigrationFiles({ migrationsFolder }).map(({ hash, folderMillis }) => ({ hash, folderMillis })),
  );
  const expected = await shippedMigrations.catch((error: unknown) => {
    shippedMigrations = undefined;
    throw error;
  });
  let appliedHashes: Set<string>;
  try {
    const result = await db.execute<{ hash: string }>(sql`select hash from drizzle.__drizzle_migrations`);
    appliedHashes = new Set(rowsOf<{ hash: string }>(result).map((r) => r.hash));
  } catch {
    appliedHashes = new Set();
  }
  return expected.filter((m) => !appliedHashes.has(m.hash)).map((m) => m.folderMillis.toString());
}

/** node-postgres returns `{ rows }`, PGlite too; normalise for raw queries. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
