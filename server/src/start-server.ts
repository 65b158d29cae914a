import { secp256k1 } from "@noble/curves/secp256k1";
import { buildApp } from "./app.ts";
import { describeEmbeddedChain } from "./chain/describe.ts";
import { ANVIL_DEV_KEYS, DEV_TREASURY_INDEX } from "./chain/dev-chain.ts";
import { startEmbeddedChain } from "./chain/embedded.ts";
import type { EmbeddedAnvil } from "./chain/embedded-anvil.ts";
import type { Config } from "./config.ts";
import { developmentSignInWarning } from "./config-social.ts";
import { openConfigured } from "./db/client.ts";

/** How long after listen the background jobs start. */
const JOBS_DELAY_MS = 1000;

/**
 * The server of `npm start`, on the configuration main.ts has checked, with what it has started ahead: anvil
 * booting when the chain is embedded (the embedded database's thread is taken over by openConfigured).
 */
export async function startServer(config: Config, early: { anvil?: Promise<EmbeddedAnvil> }) {
  // secp256k1's table of the generator's multiples, which every key derivation and signature uses, at window 4
  // instead of the library's 8: built in 11-22 ms instead of 67-79 ms (measured here), for about 1 ms more per
  // derivation (2 instead of 1). A start derives some eight keys (the development accounts, the treasury, the
  // managed wallets' root); the server signs and verifies rarely (sign-ins, treasury sends).
  secp256k1.utils.precompute(4);

  // The embedded database opens and migrates on its own thread (decision 030) while the chain starts and the app
  // is built: the app's statements wait for the migrations. PostgreSQL's do not, so there they run first.
  const database = await openConfigured(config);
  const migrated = database.migrate();
  migrated.catch(() => {}); // awaited below, after the app is built
  if (database.driver === "pg") await migrated;
  // No RPC_URL: a local anvil chain under DATA_DIR, stopped with the server (see docs/chain.md).
  const embedded =
    config.chain.rpcUrls.length === 0
      ? await startEmbeddedChain(config.chain, config.dataDir, undefined, early.anvil)
      : undefined;
  // Development treasury: anvil's public test key #4 (printed below with the demo accounts).
  if (embedded) config.treasury.privateKey ??= ANVIL_DEV_KEYS[DEV_TREASURY_INDEX];
  const app = await buildApp(config, { database, ...(embedded ? { chain: embedded.chain } : {}) });
  await migrated;
  let closing = false;
  let jobs: NodeJS.Timeout | undefined;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    clearTimeout(jobs);
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await database.close();
    await embedded?.chain.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  const address = await app.listen({ host: config.host, port: config.port });
  // The background jobs start a moment after listen: their first queries (each touching its tables for the first
  // time, 50-150 ms apiece on the embedded database) would otherwise hold the start's first requests (decision 029).
  jobs = setTimeout(() => {
    if (closing) return;
    // The indexer and the expiry job (on the one instance that holds the engine lock); stopped by app.close().
    app.payments.start();
    // Webhook deliveries and payment emails, on every instance (work is claimed, never done twice).
    app.notifications.start();
    // The treasury sender and the purchase scanner (on the one instance that holds the treasury lock).
    app.treasury?.start();
  }, JOBS_DELAY_MS);
  const url = config.publicUrlFromListen
    ? address.replace("[::1]", "localhost").replace("127.0.0.1", "localhost")
    : config.publicUrl;
  const databaseName =
    app.database.driver === "pg" ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.dataDir}`;
  // Links in emails, payment links and Sign-In with Ethereum use this one origin (decision 010).
  const origin = config.publicUrlFromListen
    ? `${config.publicUrl} (the listen address; set PUBLIC_URL to serve other machines)`
    : `${config.publicUrl} (PUBLIC_URL; listening on ${address})`;
  console.log(`\nCPXTB Pay is running at ${url}\n  public origin: ${origin}\n  database: ${databaseName}\n`);
  if (embedded) console.log(describeEmbeddedChain(embedded, config.dataDir));
  // Anyone reaching the site could sign in as anyone through it: said at every start while it is on.
  const devSignIn = developmentSignInWarning(config.social, config);
  if (devSignIn) app.log.warn(devSignIn);
}
