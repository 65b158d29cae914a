import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import type { Mailer } from "../../lib/mailer.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import { PAYMENT_EVENTS_CHANNEL } from "../payments/live.ts";
import { webhookRoutes } from "../webhooks/routes.ts";
import type { TargetPolicy } from "../webhooks/ssrf.ts";
import { type NotificationsOptions, NotificationsRuntime } from "./runtime.ts";

export type NotificationsPluginOptions = {
  config: Config;
  database: Database;
  sharedState: SharedState;
  mailer: Mailer;
  tokenSymbol: string;
  options?: Partial<NotificationsOptions>;
  onRuntime: (runtime: NotificationsRuntime) => void;
};

/**
 * Webhook endpoints (routes) and the runner of webhook deliveries and payment emails (decision 016). start-server.ts
 * starts the runner; it is woken by the payments plugin after a commit on this instance, and by the published
 * event on every other instance.
 */
export async function notificationsPlugin(app: FastifyZod, options: NotificationsPluginOptions) {
  const { config, database } = options;
  // Production: public https targets only. A development install (embedded chain on loopback) adds this machine.
  const targetPolicy: TargetPolicy = config.webhooks.allowPrivate
    ? true
    : config.webhooks.allowLoopback
      ? "loopback"
      : false;
  const runtime = new NotificationsRuntime(
    {
      db: database.db,
      mailer: options.mailer,
      log: app.log,
      allowPrivate: targetPolicy,
      publicUrl: config.publicUrl,
      explorerUrl: config.explorerUrl,
      tokenSymbol: options.tokenSymbol,
    },
    options.options,
  );
  options.onRuntime(runtime);
  const stopListening = await options.sharedState.subscribe(PAYMENT_EVENTS_CHANNEL, () => runtime.wake());
  app.addHook("preClose", async () => {
    await stopListening();
    await runtime.stop();
  });
  await app.register(webhookRoutes, {
    deps: { db: database.db, allowPrivate: targetPolicy, wake: runtime.wake },
  });
}
