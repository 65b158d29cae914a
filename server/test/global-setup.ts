import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** This run's mark in the name of every PostgreSQL database a server test creates (`testDatabaseName`). */
    testDatabaseRun: string;
  }
}

/**
 * Gives the run a mark of its own and, when it ends, drops every PostgreSQL database that carries it: a test file
 * whose own drop did not run (a worker ended early, a hook failed before it) leaves nothing behind, and two runs on
 * one machine never drop each other's databases.
 */
export default function setup(project: TestProject) {
  const run = randomBytes(4).toString("hex");
  project.provide("testDatabaseRun", run);
  return async () => {
    const url = process.env.DATABASE_URL;
    if (!url) return;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname like $1",
        [`cpxtb\\_test\\_${run}\\_%`],
      );
      for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
    } finally {
      await admin.end();
    }
  };
}
