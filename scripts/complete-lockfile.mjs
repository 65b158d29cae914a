// The npm registry mirror of these machines does not serve some other platforms' binaries (biome, anvil,
// tailwind's oxide for macOS, Windows, Android ...), so npm leaves them out of package-lock.json, and then
// `npm ci` refuses the lock as "out of sync". This adds the missing optional entries with their platform
// fields, which is what a complete lock holds; npm skips them on this platform without fetching them.
// Run it after any `npm install` that changes the lock: `node scripts/complete-lockfile.mjs`.
// `--check` only reports (exit 1) when entries are missing; `npm test` runs it so a broken lock never lands.
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const PLATFORMS = ["android", "darwin", "linux", "win32", "freebsd", "openbsd", "sunos", "aix"];
let added = 0;

for (const [key, pkg] of Object.entries(lock.packages)) {
  for (const [name, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
    const where = key ? `${key}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[where] || lock.packages[`node_modules/${name}`]) continue;
    const base = name.split("/").at(-1);
    const os = PLATFORMS.find((p) => base.includes(`-${p}`));
    const cpu = base.match(/(arm64|x64|amd64|ia32|arm|wasm32|ppc64|s390x|riscv64|loong64)/)?.[1];
    if (!os && !cpu) continue; // not a platform binary: a real omission, leave it for npm to report
    const entry = { version: String(spec).replace(/^[\^~=]/, "") };
    if (cpu) entry.cpu = [cpu === "amd64" ? "x64" : cpu];
    if (os) entry.os = [os];
    if (base.includes("musl")) entry.libc = ["musl"];
    if (pkg.dev) entry.dev = true;
    entry.optional = true;
    lock.packages[`node_modules/${name}`] = entry;
    added++;
  }
}

if (process.argv.includes("--check")) {
  if (added > 0) {
    console.error(
      `package-lock.json lacks ${added} platform entries: run \`node scripts/complete-lockfile.mjs\`.`,
    );
    process.exit(1);
  }
  console.log("package-lock.json is complete");
} else {
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`complete-lockfile: added ${added} platform entr${added === 1 ? "y" : "ies"}`);
}
