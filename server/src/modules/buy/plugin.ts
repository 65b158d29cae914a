import type { Chain } from "../../chain/service.ts";
import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import type { RealtimeHub } from "../realtime/hub.ts";
import type { TreasuryRuntime } from "../treasury/runtime.ts";
import { BuyLive } from "./live.ts";
import { PaypalClient } from "./paypal-client.ts";
import { buyRoutes } from "./routes.ts";
import { type BuyDeps, orderSendListener, scanPayments } from "./service.ts";

export type BuyPluginOptions = {
  config: Config;
  database: Database;
  chain: Chain | null;
  treasury: TreasuryRuntime | null;
  sharedState: SharedState;
  hub: RealtimeHub;
  now?: () => Date;
};

/** Buying CPXTB: quotes, orders, ETH verification (submitted and scanned), live order pages. */
export async function buyPlugin(app: FastifyZod, options: BuyPluginOptions) {
  const { config, database, chain, treasury } = options;
  let live: BuyLive | null = null;
  const deps: BuyDeps = {
    db: database.db,
    chain,
    treasury: treasury?.treasury ?? null,
    paypal: config.paypal ? new PaypalClient(config.paypal) : null,
    config,
    now: options.now ?? (() => new Date()),
    log: app.log,
    notify: (id) => live?.notify(id),
  };
  live = new BuyLive(() => deps, options.sharedState, options.hub, app.log);
  await live.start();
  app.addHook("preClose", async () => {
    await live.stop();
  });
  if (treasury) {
    treasury.treasury.listen("order", orderSendListener(deps));
    treasury.addJob({ name: "buy-scan", run: () => scanPayments(deps) });
  }
  await app.register(buyRoutes, { deps });
}
