// `npm start`: builds the client when the build is missing or older than its sources, then runs the server.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const builtIndex = join(root, "dist/client/index.html");
const sources = ["client", "common", "vite.config.ts", "package-lock.json", "scripts/vite-precompress.ts"];

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

const needsBuild =
  !existsSync(builtIndex) ||
  statSync(builtIndex).mtimeMs < Math.max(...sources.map((s) => newestMtime(join(root, s))));

if (needsBuild && !process.env.SKIP_BUILD) {
  console.log("Building the client (first start or sources changed)...");
  const result = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

process.chdir(root);
process.env.NODE_ENV ??= "production";
const { register } = await import("tsx/esm/api");
register({ tsconfig: join(root, "tsconfig.json") });
await import("../server/src/main.ts");
