// `npm start`: builds the client and the server when their build is missing or older than their sources, then runs
// the compiled server (no TypeScript compilation at start).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const builtIndex = join(root, "dist/client/index.html");
const sources = [
  "client",
  "common",
  "vite.config.ts",
  "lingui.config.ts",
  "package-lock.json",
  "scripts/vite-precompress.ts",
];
const builtServer = join(root, "dist/server/main.mjs");
const serverSources = [
  "server/src",
  "common",
  "contracts/artifacts",
  "package-lock.json",
  "scripts/build-server.mjs",
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

const isStale = (built, from) =>
  !existsSync(built) || statSync(built).mtimeMs < Math.max(...from.map((s) => newestMtime(join(root, s))));

if (isStale(builtIndex, sources) && !process.env.SKIP_BUILD) {
  console.log("Building the client (first start or sources changed)...");
  const result = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// Quick (under a second): done whenever the server's sources are newer, even with SKIP_BUILD (which the test
// runner sets after building the client itself).
if (isStale(builtServer, serverSources)) {
  const { buildServer } = await import("./build-server.mjs");
  await buildServer();
}

process.chdir(root);
process.env.NODE_ENV ??= "production";
await import(pathToFileURL(builtServer).href);
