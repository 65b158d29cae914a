// `npm start`'s entry (dist/server/main.mjs): checks the configuration, starts what takes longest to start, then
// loads the rest of the server (compiling and running its modules takes about half a second) while those start:
// the embedded database opens on its own thread and anvil boots in its own process (decision 030).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startEmbeddedAnvil } from "./chain/embedded-anvil.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { PGliteWorkerClient, pgliteDir } from "./db/pglite-worker-client.ts";

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// Only a database an earlier start created: a first start creates it in its own time (initdb), and a start that
// fails in between must not leave it half-made.
const databaseDir = pgliteDir(config.dataDir);
if (!config.databaseUrl && existsSync(join(databaseDir, "PG_VERSION")))
  PGliteWorkerClient.prestart(databaseDir);
const anvil =
  config.chain.rpcUrls.length === 0 ? startEmbeddedAnvil(config.chain.chainId, config.dataDir) : undefined;
// Awaited by the server's start; until then a failure must not end the process as an unhandled rejection.
anvil?.catch(() => {});

try {
  const { startServer } = await import("./start-server.ts");
  await startServer(config, { anvil });
} catch (error) {
  console.error("CPXTB Pay failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
}
