// Compiles the server once into dist/server/main.mjs (esbuild), so `npm start` runs one JavaScript module instead of
// compiling TypeScript with tsx and resolving some two thousand package files at every start. npm packages are
// bundled too, except those that load files of their own at run time (WebAssembly, native addons, the anvil
// binary, pino's worker transports); they stay imports resolved from node_modules. Code that only some
// configurations or requests use (PostgreSQL's and Redis's clients, SMTP, passkeys) is imported where it is used and
// becomes a chunk beside main.mjs, which a start neither parses nor runs. The SQL migrations are copied beside them:
// the database client finds them next to its own module. The site's Markdown content is rendered into content.json
// beside them too; a start uses it when the files have not changed since (decision 028).
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
export const serverOutDir = join(root, "dist/server");

/**
 * PGlite runs on the embedded database's own thread (decision 030): drizzle's PGlite driver, bundled for the server's
 * thread, gets the few names it imports from PGlite from a module of ours instead of PGlite's JavaScript.
 */
const pgliteOffTheServerThread = {
  name: "pglite-off-the-server-thread",
  setup(build) {
    build.onResolve({ filter: /^@electric-sql\/pglite$/ }, ({ importer }) =>
      importer.includes("/node_modules/drizzle-orm/")
        ? { path: join(root, "server/src/db/pglite-on-server-thread.ts") }
        : undefined,
    );
  },
};

export async function buildServer() {
  rmSync(serverOutDir, { recursive: true, force: true });
  await build({
    entryPoints: [
      join(root, "server/src/main.ts"),
      join(root, "server/src/modules/content/prerender-content.ts"),
      join(root, "server/src/db/pglite-worker.ts"),
    ],
    outdir: serverOutDir,
    entryNames: "[name]",
    splitting: true,
    chunkNames: "[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["@electric-sql/pglite", "@node-rs/argon2", "@foundry-rs/anvil", "pino", "thread-stream"],
    // Bundled CommonJS packages call require() for Node's built-in modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    plugins: [pgliteOffTheServerThread],
    sourcemap: true,
    logLevel: "warning",
  });
  cpSync(join(root, "server/src/db/migrations"), join(serverOutDir, "migrations"), { recursive: true });
  try {
    const prerender = await import(pathToFileURL(join(serverOutDir, "prerender-content.mjs")).href);
    prerender.writeRenderedContent(join(root, "content"), join(serverOutDir, "content.json"));
  } catch (error) {
    // Not fatal here: the start renders the content itself and stops on the broken file, naming it.
    console.warn(`The content was not rendered by the build (the server will at start): ${error.message}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
