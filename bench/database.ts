// A PostgreSQL database of a bench's own, created beside the one DATABASE_URL names and dropped afterwards, so a
// bench never writes into a database someone uses. Without DATABASE_URL there is none (the bench runs on PGlite).
import { randomBytes } from "node:crypto";
import pg from "pg";

export async function createBenchDatabase(
  prefix: string,
): Promise<{ url: string | undefined; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { url: undefined, drop: async () => {} };
  const name = `cpxtb_bench_${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const benchUrl = new URL(url);
  benchUrl.pathname = `/${name}`;
  return {
    url: benchUrl.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}
