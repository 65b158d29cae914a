// What drizzle's PGlite driver imports from PGlite, for the server's own thread, where PGlite does not run (it runs
// on the embedded database's thread, decision 030): the type ids its column parsers name. The build resolves
// drizzle's `@electric-sql/pglite` imports here (scripts/build-server.mjs), so a start neither loads nor compiles
// PGlite's JavaScript twice (about 5 MB and 40 ms here). `pglite-worker.test.ts` checks the ids against PGlite's.

/** PostgreSQL's type ids, as PGlite's `types` names them. */
export const types = { TIMESTAMP: 1114, TIMESTAMPTZ: 1184, INTERVAL: 1186, DATE: 1082 } as const;

/** drizzle constructs a PGlite itself only when given a data directory instead of a client, which we never do. */
export class PGlite {
  constructor() {
    throw new Error("PGlite runs on the embedded database's thread (pglite-worker.ts), not here.");
  }
}
