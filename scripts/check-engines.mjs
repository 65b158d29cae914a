// Every package that `npm ci` installs must declare that it runs on the oldest Node.js the README promises
// (package.json `engines.node`), so that the promise is true. A package whose newest release dropped it is pinned to
// the last release that has it, under `overrides` in package.json (content-disposition for @fastify/static).
// One exception is known and tested here rather than pinned: cookie@2 (through @fastify/cookie and fastify's
// light-my-request) declares Node 22 but is plain ECMAScript with no Node API at all; @fastify/cookie loads it with
// `import()`, which its Node 18 release (cookie@1, CommonJS) does not survive in our bundled server, so `npm ci`
// prints one EBADENGINE warning for it. This script loads it as the server does and runs what the server uses on
// the Node.js running it; `npm test` runs it (and every sign-in of the suite goes through it too).
// `npm test` runs this with the lockfile check.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const semver = require("semver");
const root = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8"));
const oldest = semver.minVersion(root.engines.node).version;

/** Packages known to declare a newer Node than they need, each with the check that shows it works here. */
const tested = {
  cookie: async (version) => {
    if (semver.major(version) !== 2) return false;
    const fromPlugin = createRequire(require.resolve("@fastify/cookie"));
    const cookie = await import(fromPlugin.resolve("cookie"));
    const header = cookie.stringifySetCookie(
      { name: "cpxtb_session", value: "a b", httpOnly: true, sameSite: "lax", path: "/", maxAge: 60 },
      {},
    );
    const parsed = cookie.parseCookie("cpxtb_session=a%20b; theme=dark");
    return (
      header === "cpxtb_session=a%20b; Max-Age=60; Path=/; HttpOnly; SameSite=Lax" &&
      parsed.cpxtb_session === "a b" &&
      parsed.theme === "dark"
    );
  },
};

const refusing = [];
for (const [key, pkg] of Object.entries(lock.packages)) {
  if (!key || pkg.optional || !pkg.engines?.node) continue;
  if (semver.satisfies(oldest, pkg.engines.node, { includePrerelease: true })) continue;
  const name = key.replace(/^.*node_modules\//, "");
  const check = tested[name];
  if (check && (await check(pkg.version))) {
    console.log(
      `${name}@${pkg.version} declares node ${pkg.engines.node}; works on ${process.version} (checked)`,
    );
    continue;
  }
  refusing.push(`${name}@${pkg.version} (node ${pkg.engines.node})`);
}

if (refusing.length > 0) {
  console.error(`These packages do not declare Node.js ${oldest}, the oldest package.json promises:`);
  for (const line of refusing) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`every other package declares Node.js ${oldest} (package.json engines: ${root.engines.node})`);
