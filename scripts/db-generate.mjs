// `npm run db:generate -- --name what-it-does`: drizzle-kit's generate, numbered after the newest migration.
// drizzle-kit names a new migration by its journal index; our journal skips a number (0019), so its index-based
// name would repeat the newest migration's number and overwrite that migration's snapshot. This keeps the
// snapshots, then renames the new migration and its snapshot to the next free number.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = "server/src/db/migrations";
const meta = join(dir, "meta");
const journalPath = join(meta, "_journal.json");
const number = (tag) => Number(tag.split("_")[0]);

const before = JSON.parse(readFileSync(journalPath, "utf8"));
const snapshots = new Map(
  readdirSync(meta)
    .filter((f) => f.endsWith("_snapshot.json"))
    .map((f) => [f, readFileSync(join(meta, f), "utf8")]),
);

const run = spawnSync("npx", ["drizzle-kit", "generate", ...process.argv.slice(2)], { stdio: "inherit" });
if (run.status !== 0) process.exit(run.status ?? 1);

const journal = JSON.parse(readFileSync(journalPath, "utf8"));
if (journal.entries.length === before.entries.length) process.exit(0); // nothing changed in the schema

const entry = journal.entries.at(-1);
const next = Math.max(...before.entries.map((e) => number(e.tag))) + 1;
const written = `${entry.tag.split("_")[0]}_snapshot.json`;
const fresh = readFileSync(join(meta, written), "utf8");
if (snapshots.has(written)) writeFileSync(join(meta, written), snapshots.get(written)); // restore the overwritten one

const prefix = String(next).padStart(4, "0");
const tag = `${prefix}_${entry.tag.split("_").slice(1).join("_")}`;
renameSync(join(dir, `${entry.tag}.sql`), join(dir, `${tag}.sql`));
writeFileSync(join(meta, `${prefix}_snapshot.json`), fresh);
entry.tag = tag;
writeFileSync(journalPath, `${JSON.stringify(journal, null, 2)}\n`);
console.log(`migration ${tag}.sql, snapshot ${prefix}_snapshot.json`);
