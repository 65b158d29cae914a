import { type PublicPayment, publicPaymentResponse } from "@common/payments.ts";
import type { Chain } from "../../chain/service.ts";
import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import { apiDocsRoutes } from "../api-docs/routes.ts";
import { type ApiRouteCatalog, v1Routes } from "../api-v1/routes.ts";
import type { SessionCache } from "../auth/session-cache.ts";
import { linkRoutes } from "../links/routes.ts";
import { merchantRoutes } from "../merchants/routes.ts";
import type { RealtimeHub } from "../realtime/hub.ts";
import { reportRoutes } from "../reports/routes.ts";
import { PAYMENT_EVENTS_CHANNEL } from "./live.ts";
import { PUBLIC_VIEWS_CHANNEL, PublicPaymentCache } from "./public-cache.ts";
import { refundRoutes } from "./refund-routes.ts";
import { paymentRoutes } from "./routes.ts";
import { PaymentsRuntime, type PaymentsRuntimeOptions } from "./runtime.ts";
import type { PaymentsDeps } from "./service.ts";

export type PaymentsPluginOptions = {
  config: Config;
  database: Database;
  chain: Chain | null;
  sharedState: SharedState;
  /** Tells the live channel when sessions end, so their merchant feeds stop. */
  sessions: SessionCache;
  hub: RealtimeHub;
  /** Tests move time; production uses the wall clock. */
  now?: () => Date;
  runtime?: Partial<PaymentsRuntimeOptions>;
  /** The public read cache's clock (ms); tests stop it. */
  publicCacheClock?: () => number;
  onRuntime: (runtime: PaymentsRuntime) => void;
  /** Receives the public read (`GET /api/payments/public/:reference`'s cached view): the pay page renders it. */
  onPublicRead?: (read: (reference: string) => Promise<PublicPayment>) => void;
  /** Called after every commit that wrote outbox events here (wakes the webhook and email runner at once). */
  onEventsCommitted?: () => void;
};

/** Merchants, payment requests, the indexer and the live channel's payment subscriptions. */
export async function paymentsPlugin(app: FastifyZod, options: PaymentsPluginOptions) {
  const { config, database, chain } = options;
  let runtime: PaymentsRuntime | null = null;
  let publicCache: PublicPaymentCache | null = null;
  const deps: PaymentsDeps = {
    db: database.db,
    chain,
    config,
    now: options.now ?? (() => new Date()),
    // Called after every commit that changed payments: this instance reads its own writes at once (the cache is
    // dropped here); the others drop it when the published event reaches them.
    notify: () => {
      publicCache?.invalidate(null);
      runtime?.live.notify();
      options.onEventsCommitted?.();
    },
    inboxChanged: (merchantIds, unmatched) => runtime?.live.publishInbox(merchantIds, unmatched),
  };
  runtime = new PaymentsRuntime(
    deps,
    database,
    chain,
    options.sharedState,
    options.sessions,
    options.hub,
    app.log,
    {
      pollMs: config.payments.indexerPollMs,
      maxRange: config.payments.indexerMaxRange,
      startBlock: config.payments.indexerStartBlock,
      // The embedded chain is local and mines on demand: a block not yet seen is stamped within a second or two.
      idleClockMarginMs: config.chain.rpcUrls.length === 0 ? 2000 : 30_000,
      expiryEveryMs: 1000,
      lockEveryMs: 5000,
      ...options.runtime,
    },
    () => config.publicUrl,
  );
  await runtime.live.start();
  options.onRuntime(runtime);
  app.addHook("preClose", async () => {
    await runtime.stop();
  });
  // Every instance drops a payment's cached public view when it hears that payment's event.
  const cache = new PublicPaymentCache(deps, options.publicCacheClock);
  publicCache = cache;
  // Only the fields the API declares (the route's schema strips the rest the same way).
  options.onPublicRead?.(async (reference) => publicPaymentResponse.parse(await cache.get(reference)));
  const stopInvalidating = await options.sharedState.subscribe(PAYMENT_EVENTS_CHANNEL, (text) => {
    try {
      cache.invalidate((JSON.parse(text) as { reference?: string | null }).reference);
    } catch {
      cache.invalidate(null);
    }
  });
  // A merchant's name, logo, colours or website changed: every instance drops its cached views (this one at once).
  const stopMerchantInvalidating = await options.sharedState.subscribe(PUBLIC_VIEWS_CHANNEL, () =>
    cache.invalidate(null),
  );
  const merchantChanged = () => {
    cache.invalidate(null);
    options.sharedState
      .publish(PUBLIC_VIEWS_CHANNEL, "merchant")
      .catch((error) => app.log.warn({ err: error }, "public views: invalidation publish failed"));
  };
  app.addHook("preClose", async () => {
    await stopInvalidating();
    await stopMerchantInvalidating();
  });
  await app.register(merchantRoutes, { db: database.db, onMerchantChanged: merchantChanged });
  await app.register(paymentRoutes, { deps, config, publicCache: cache });
  await app.register(refundRoutes, { deps, config });
  await app.register(linkRoutes, { deps, config });
  // The server-to-server API and its OpenAPI document, made from the same routes.
  const catalog: ApiRouteCatalog = [];
  await app.register(v1Routes, { deps, config, catalog, publicCache: cache });
  await app.register(apiDocsRoutes, { catalog, publicUrl: config.publicUrl, keyKind: config.apiKeyKind });
  await app.register(reportRoutes, { db: database.db, tokenSymbol: chain?.token.symbol ?? "CPXTB" });
}
