// Prints the gzip size of the JavaScript `/` loads eagerly and of each route's own chunk (budget: 90 KB for `/`).
// Reads the Vite manifest of the production build (`npx vite build` first; `npm run bench` does it).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const dist = join(import.meta.dirname, "../dist/client");
const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));
const BUDGET_KB = 90;
const TARGET_KB = 70;

const gzipKb = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;

/** Every chunk a module needs before it runs: itself and its static imports, transitively. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
}
const sizeOf = (keys) =>
  [...keys].reduce((sum, k) => sum + (manifest[k].file.endsWith(".js") ? gzipKb(manifest[k].file) : 0), 0);
const cssOf = (keys) =>
  [...keys].flatMap((k) => manifest[k].css ?? []).reduce((sum, file) => sum + gzipKb(file), 0);

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const entry = closure(entryKey);
// main.tsx imports its boot steps (React DOM, the app's shell) at once, each evaluated in a task of its own
// (decision 036): they are eager JavaScript like the entry's static imports.
for (const key of [...entry]) for (const boot of manifest[key].dynamicImports ?? []) closure(boot, entry);
const routeKeys = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry && k.includes("/routes/"));
const routeOwn = (key) => new Set([...closure(key)].filter((k) => !entry.has(k)));

const homeKey = routeKeys.find((k) => k.endsWith("/routes/home.tsx"));
const eagerHome = new Set([...entry, ...(homeKey ? routeOwn(homeKey) : [])]);
const eagerKb = sizeOf(eagerHome);

console.log("JavaScript loaded eagerly by / (gzip):");
console.log(`  entry (shell)          ${sizeOf(entry).toFixed(1)} KB`);
if (homeKey) console.log(`  home route             ${sizeOf(routeOwn(homeKey)).toFixed(1)} KB`);
console.log(
  `  total                  ${eagerKb.toFixed(1)} KB  (budget ${BUDGET_KB} KB) ${eagerKb <= BUDGET_KB ? "OK" : "OVER BUDGET"}; DESIGN.md's target ${TARGET_KB} KB ${eagerKb <= TARGET_KB ? "met" : "not met"}`,
);
console.log("  (/ is server-rendered: it asks for this after its first contentful paint, decision 023)");
console.log(`  CSS                    ${cssOf(entry).toFixed(1)} KB`);
console.log("\nEach route's own chunks beyond the shell (gzip):");
for (const key of routeKeys.sort()) {
  const name = key.replace(/^.*\/routes\//, "").replace(/\.tsx?$/, "");
  console.log(`  ${name.padEnd(22)} ${sizeOf(routeOwn(key)).toFixed(1)} KB`);
}
const lazyOther = Object.keys(manifest).filter(
  (k) => manifest[k].isDynamicEntry && !k.includes("/routes/") && manifest[k].file.endsWith(".js"),
);
if (lazyOther.length > 0) {
  console.log("\nOther lazy chunks (gzip):");
  for (const key of lazyOther.sort())
    console.log(`  ${key.padEnd(40)} ${sizeOf(routeOwn(key)).toFixed(1)} KB`);
}
if (eagerKb > BUDGET_KB) process.exitCode = 1;
