// `npm test`: every check, in the order a failure is cheapest to find.
import { spawnSync } from "node:child_process";

const steps = [
  ["lockfile (npm ci accepts it)", "node", ["scripts/complete-lockfile.mjs", "--check"]],
  ["engines (every package runs on the oldest Node.js promised)", "node", ["scripts/check-engines.mjs"]],
  ["type-check", "npm", ["run", "typecheck"]],
  ["lint", "npm", ["run", "lint"]],
  ["unit tests (client, common)", "npm", ["run", "test:unit"]],
  ["server tests on embedded PGlite", "npm", ["run", "test:server"], { DATABASE_URL: "" }],
];
if (process.env.DATABASE_URL) {
  steps.push([`server tests on PostgreSQL`, "npm", ["run", "test:server"], {}]);
}
steps.push(["client build", "npx", ["vite", "build", "--logLevel", "warn"]]);
steps.push(["server build", "node", ["scripts/build-server.mjs"]]);
steps.push(["browser tests (Playwright, Chromium)", "npm", ["run", "test:e2e"], { SKIP_BUILD: "1" }]);

const only = process.argv.slice(2);
const started = Date.now();
for (const [name, command, args, env = {}] of steps) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  const stepStart = Date.now();
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - stepStart) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${name} (${seconds}s)`);
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)}s.`);
