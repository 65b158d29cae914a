import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, inject } from "vitest";
import { type App, type AppDeps, buildApp } from "../src/app.ts";
import { type Config, testConfig } from "../src/config.ts";
import { type Database, openDatabase } from "../src/db/client.ts";

/**
 * Counts the statements a database sends while `count` runs (the batches' constant-statement tests): give its
 * `onStatement` to `createTestDatabase`.
 */
export function statementCounter() {
  let statements: number | null = null;
  return {
    onStatement: () => {
      if (statements !== null) statements++;
    },
    async count<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
      statements = 0;
      try {
        const result = await work();
        return { result, statements };
      } finally {
        statements = null;
      }
    },
  };
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default; with DATABASE_URL set, a new
 * PostgreSQL database created beside the given one and dropped afterwards.
 */
export async function createTestDatabase(
  options: { onStatement?: (sql: string, params: unknown[]) => void } = {},
): Promise<Database> {
  const url = process.env.DATABASE_URL;
  const { onStatement } = options;
  if (!url) {
    const database = await openDatabase({ driver: "pglite", dataDir: null, onStatement });
    await database.migrate();
    return database;
  }
  const own = await createPostgresDatabase(url);
  const database = await openDatabase({ driver: "pg", url: own.url, poolSize: 5, onStatement });
  await database.migrate();
  const close = database.close;
  database.close = async () => {
    await close();
    await own.drop();
  };
  return database;
}

/**
 * A new, empty PostgreSQL database beside `serverUrl`'s, named with this run's mark (global-setup.ts drops what a
 * file leaves behind); `admin` runs one statement on the server, `drop()` removes it.
 */
export async function createPostgresDatabase(serverUrl: string) {
  const name = `cpxtb_test_${inject("testDatabaseRun")}_${randomBytes(6).toString("hex")}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    drop: () => admin(`drop database if exists "${name}" with (force)`),
  };
}

/** Builds the app on a fresh database; both are closed after the test file. */
export async function createTestApp(
  overrides: Partial<Config> = {},
  deps: Omit<AppDeps, "database"> = {},
): Promise<App> {
  const database = await createTestDatabase();
  const app = await buildApp(testConfig({ clientDist: "/nonexistent", ...overrides }), { ...deps, database });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return app;
}
