// Every package that `npm ci` installs must declare that it runs on the oldest Node.js the README promises
// (package.json `engines.node`), so that `npm ci` prints no EBADENGINE warning and the promise is true. A package
// whose newest release dropped it is pinned to the last release that has it, under `overrides` in package.json.
// `npm test` runs this with the lockfile check.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const semver = require("semver");
const root = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8"));
const oldest = semver.minVersion(root.engines.node).version;

const refusing = Object.entries(lock.packages)
  .filter(([key, pkg]) => key && !pkg.optional && pkg.engines?.node)
  .filter(([, pkg]) => !semver.satisfies(oldest, pkg.engines.node, { includePrerelease: true }))
  .map(([key, pkg]) => `${key.replace(/^.*node_modules\//, "")}@${pkg.version} (node ${pkg.engines.node})`);

if (refusing.length > 0) {
  console.error(`These packages do not declare Node.js ${oldest}, the oldest package.json promises:`);
  for (const line of refusing) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`every package declares Node.js ${oldest} (package.json engines: ${root.engines.node})`);
