import type { Chain } from "../../chain/service.ts";
import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { TreasuryRuntime } from "./runtime.ts";
import { Treasury, type TreasuryOptions } from "./treasury.ts";

export type TreasuryPluginOptions = {
  config: Config;
  database: Database;
  chain: Chain | null;
  overrides?: Partial<TreasuryOptions>;
  onRuntime: (runtime: TreasuryRuntime | null) => void;
};

/** The treasury sender, when there is a chain and a key; buying and claiming refuse without it. */
export async function treasuryPlugin(app: FastifyZod, options: TreasuryPluginOptions) {
  const { config, database, chain } = options;
  const privateKey = config.treasury.privateKey;
  if (!chain || !privateKey) {
    if (chain) app.log.warn({}, "TREASURY_PRIVATE_KEY is not set: buying and claiming CPXTB are unavailable");
    options.onRuntime(null);
    return;
  }
  const treasury = new Treasury({
    db: database.db,
    chain,
    config: config.treasury,
    privateKey,
    log: app.log,
    ...options.overrides,
  });
  const runtime = new TreasuryRuntime(treasury, database, app.log, config.treasury.pollMs);
  options.onRuntime(runtime);
  app.addHook("preClose", async () => {
    await runtime.stop();
  });
}
