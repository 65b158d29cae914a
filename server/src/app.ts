import { CHECKOUT_MESSAGE_AREAS, FRAMED_CHECKOUT_MESSAGE_AREAS } from "@common/checkout-areas.ts";
import { isClientRoute } from "@common/client-routes.ts";
import type { Locale, MessageArea } from "@common/locales.ts";
import type { PublicPayment } from "@common/payments.ts";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { type Chain, connectChain } from "./chain/service.ts";
import type { Config } from "./config.ts";
import { type Database, openConfiguredDatabase } from "./db/client.ts";
import { errorBody } from "./errors.ts";
import { registerCsrfGuard } from "./lib/csrf.ts";
import { registerBodyDrain } from "./lib/drain-body.ts";
import { registerErrorHandling, sendFrameworkError } from "./lib/error-handler.ts";
import type { FastifyZod } from "./lib/fastify-zod.ts";
import { requestLocale } from "./lib/i18n.ts";
import { loggerOptions, OneLinePerRequest } from "./lib/logger.ts";
import { createMailer, type Mailer } from "./lib/mailer.ts";
import { isHttpsOrigin, requestOrigin } from "./lib/public-origin.ts";
import { generateRequestId } from "./lib/request-id.ts";
import { trackRoutes } from "./lib/route-index.ts";
import { registerSecurityHeaders } from "./lib/security-headers.ts";
import { openSharedState } from "./lib/shared-state/open-shared-state.ts";
import type { SharedState } from "./lib/shared-state/shared-state.ts";
import { apiKeyRoutes } from "./modules/api-keys/routes.ts";
import { authenticateApiKey } from "./modules/api-keys/service.ts";
import { auditRoutes } from "./modules/audit/routes.ts";
import { createLoginThrottle, type LoginThrottle } from "./modules/auth/login-throttle.ts";
import { authRoutes } from "./modules/auth/routes.ts";
import { toUserResponse } from "./modules/auth/service.ts";
import { resolveAuth, SESSION_COOKIE } from "./modules/auth/session.ts";
import { SessionCache } from "./modules/auth/session-cache.ts";
import { buyPlugin } from "./modules/buy/plugin.ts";
import { chainConfigView, chainRoutes } from "./modules/chain/routes.ts";
import { claimRoutes } from "./modules/claims/routes.ts";
import { healthRoutes } from "./modules/health/routes.ts";
import { liveUsersPlugin } from "./modules/live-users/plugin.ts";
import { startRetention } from "./modules/maintenance/retention.ts";
import { registerMerchantAccess } from "./modules/merchants/access.ts";
import { notificationsPlugin } from "./modules/notifications/plugin.ts";
import type { NotificationsOptions, NotificationsRuntime } from "./modules/notifications/runtime.ts";
import { paymentsPlugin } from "./modules/payments/plugin.ts";
import type { PaymentsRuntime, PaymentsRuntimeOptions } from "./modules/payments/runtime.ts";
import { startSumsCompaction } from "./modules/reports/sums.ts";
import { treasuryPlugin } from "./modules/treasury/plugin.ts";
import type { TreasuryRuntime } from "./modules/treasury/runtime.ts";
import type { TreasuryOptions } from "./modules/treasury/treasury.ts";
import "./modules/realtime/decorations.ts";
import { contactRoutes } from "./modules/contact/routes.ts";
import { loadContent } from "./modules/content/content-store.ts";
import { contentRoutes, createPageHtmlResolver } from "./modules/content/routes.ts";
import {
  allowCheckoutFraming,
  allowLinkFraming,
  embedCheckoutReference,
  embedLinkSlug,
  embedRoutes,
} from "./modules/embed/routes.ts";
import { loadEmbedScript } from "./modules/embed/script.ts";
import { getPublicLink } from "./modules/links/service.ts";
import { RealtimeHub } from "./modules/realtime/hub.ts";
import { realtimeRoutes } from "./modules/realtime/routes.ts";
import { ChallengeService } from "./modules/security/challenge-service.ts";
import {
  ACCOUNT_KEY_PREFIX,
  API_KEY_CLIENT_PREFIX,
  allowRenderedPage,
  type ClientKeyResolver,
  ipClientKey,
  registerRateLimits,
} from "./modules/security/rate-limit.ts";
import { securityRoutes } from "./modules/security/routes.ts";
import { resolveChallengeSecret } from "./modules/security/secret.ts";
import { siweRoutes } from "./modules/siwe/routes.ts";
import { socialAuthRoutes } from "./modules/social-auth/routes.ts";
import { teamRoutes } from "./modules/team/routes.ts";
import { twoFactorRoutes } from "./modules/two-factor/routes.ts";
import { createSecretBox } from "./modules/two-factor/secret-box.ts";
import { walletRoutes } from "./modules/wallet/routes.ts";
import { createManagedWallets } from "./modules/wallet/service.ts";
import { isDashboardPath, renderDashboardPage } from "./modules/web/dashboard-page.ts";
import { linkSlugOf, renderLinkPage } from "./modules/web/link-page.ts";
import { checkoutReference, renderPayPage } from "./modules/web/pay-page.ts";
import {
  catalogSource,
  loadClientBuild,
  loadServerEntry,
  modulePreloadLinks,
  modulePreloads,
  pageCodeLinks,
  prefetchLinks,
  registerClientRoutes,
  sendIndexHtml,
  sendRenderedHtml,
} from "./modules/web/routes.ts";

export type AppDeps = {
  /** An open, migrated database; when absent, one is opened from the configuration (and closed with the app). */
  database?: Database;
  /** A connected chain (tests pass an anvil-backed one); when absent, connected from RPC_URL, or none without it. */
  chain?: Chain;
  /** Shared state (Redis or in-process); when absent, opened from the configuration (and closed with the app). */
  sharedState?: SharedState;
  mailer?: Mailer;
  loginThrottle?: LoginThrottle;
  /** Where the log goes instead of stdout (tests read it to check what is never logged). */
  logStream?: { write(line: string): void };
  /** Extra routes registered before the app is sealed (tests use it to exercise the shared machinery). */
  extraRoutes?: (app: FastifyZod) => Promise<void>;
  /** Payments: a clock tests can move, and indexer timings. */
  payments?: {
    now?: () => Date;
    runtime?: Partial<PaymentsRuntimeOptions>;
    /** The public read cache's clock (ms); a test that stops it sees an entry change only by an event. */
    publicCacheClock?: () => number;
  };
  /** Webhook and payment-email runner timings (tests shorten the retry schedule). */
  notifications?: Partial<NotificationsOptions>;
  /** Treasury: a clock and hooks tests use. */
  treasury?: Partial<TreasuryOptions>;
};

/** `payments` runs the indexer and expiry job once started (start-server.ts starts it; tests drive it). */
export type App = FastifyInstance & {
  database: Database;
  chain: Chain | null;
  payments: PaymentsRuntime;
  /** Webhook deliveries and payment emails; start-server.ts starts it (tests start it when they need it). */
  notifications: NotificationsRuntime;
  /** Null without a chain or TREASURY_PRIVATE_KEY. start-server.ts starts it; tests run passes with `runOnce`. */
  treasury: TreasuryRuntime | null;
  routeIndex: ReturnType<typeof trackRoutes>;
};

/**
 * TRUST_PROXY for Fastify. A hop count trusts the socket's peer and the next hops back in X-Forwarded-For, so
 * the client is the address that many hops back (Fastify 5.12 treats a bare number as "trust nothing", hence
 * the function). Only safe when every request comes through those proxies; an address list is stricter.
 */
function trustProxyOption(trust: Config["trustProxy"]) {
  if (typeof trust !== "number") return trust;
  return (_address: string, hop: number) => hop < trust;
}

/** An answer given before a body was read waits for up to this many times BODY_LIMIT_BYTES of it, and this long. */
const BODY_DRAIN_LIMIT_FACTOR = 16;
const BODY_DRAIN_MS = 15_000;

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const app = Fastify({
    logger: loggerOptions(config, deps.logStream),
    logController: new OneLinePerRequest(),
    genReqId: generateRequestId,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
    frameworkErrors: sendFrameworkError,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerBodyDrain(app, { maxBytes: BODY_DRAIN_LIMIT_FACTOR * config.bodyLimitBytes, maxMs: BODY_DRAIN_MS });
  const routes = trackRoutes(app);
  app.decorate("routeIndex", routes);

  const ownsDatabase = !deps.database;
  const database = deps.database ?? (await openConfiguredDatabase(config));
  app.decorate("database", database);
  if (ownsDatabase) app.addHook("onClose", () => database.close());

  const sharedState =
    deps.sharedState ??
    (await openSharedState({
      redisUrl: config.redisUrl,
      keyPrefix: config.redisKeyPrefix,
      commandTimeoutMs: config.redisCommandTimeoutMs,
      log: app.log,
    }));
  app.decorate("sharedState", sharedState);
  if (!deps.sharedState) app.addHook("onClose", () => sharedState.close());
  const sessionCache = new SessionCache(sharedState, app.log);
  await sessionCache.start();
  app.decorate("sessionCache", sessionCache);
  app.addHook("preClose", () => sessionCache.stop());

  app.addHook("onSend", async (request, reply) => {
    reply.header("X-Request-Id", request.id);
  });

  app.decorate("secureCookies", isHttpsOrigin(config));
  app.decorateRequest("auth", undefined);
  app.decorateRequest("apiKey", undefined);
  await app.register(fastifyCookie);
  registerCsrfGuard(app, { publicUrl: config.publicUrl });

  // Only JSON bodies: forms and text/plain (which browsers send cross-site without a preflight) are refused.
  app.removeContentTypeParser("text/plain");

  const clientBuild = loadClientBuild(config.clientDist);
  const securityHeaders = registerSecurityHeaders(app, config, clientBuild?.inlineScriptHashes ?? []);

  // Every /api route registered from here on is rate limited by its group (see modules/security/rate-limit.ts).
  const challengeSecret = resolveChallengeSecret(config, app.log);
  const challenges = new ChallengeService(sharedState, challengeSecret);
  const clientKey: ClientKeyResolver = async (request, reply) => {
    // The server-to-server API counts per API key; requests without a valid one, per address.
    if (request.routeOptions.config.rateLimit === "api") {
      const key = await authenticateApiKey(database.db, request, config.apiKeyKind);
      return key ? `${API_KEY_CLIENT_PREFIX}${key.id}` : ipClientKey(request);
    }
    if (request.cookies?.[SESSION_COOKIE]) {
      const auth = await resolveAuth(database.db, request, reply);
      if (auth) return `${ACCOUNT_KEY_PREFIX}${auth.user.id}`;
    }
    return ipClientKey(request);
  };
  registerRateLimits(app, { config, state: sharedState, challenges, clientKey });
  // Every /api/merchant route registered from here on declares who may call it and is checked in one place.
  registerMerchantAccess(app, { db: database.db });

  let payments: PaymentsRuntime | null = null;
  let publicRead: ((reference: string) => Promise<PublicPayment>) | null = null;
  let treasury: TreasuryRuntime | null = null;
  await app.register(healthRoutes, {
    database,
    sharedState,
    indexer: async () => (payments ? await payments.checkHealth() : null),
    treasury: () =>
      treasury ? { ...treasury.treasury.health(), role: treasury.isLeader ? "leader" : "standby" } : null,
  });
  // Without RPC_URL, start-server.ts starts the embedded chain and passes it in; tests that need none get chain routes 503.
  const chain =
    deps.chain ??
    (config.chain.rpcUrls.length > 0 ? await connectChain(config.chain, { log: app.log }) : null);
  if (chain && !deps.chain) app.addHook("onClose", () => chain.close());
  app.decorate("chain", chain);
  await app.register(chainRoutes, { chain, config });
  const realtime = new RealtimeHub({ pingIntervalMs: config.realtime.pingIntervalMs, log: app.log });
  app.decorate("realtime", realtime);
  app.addHook("onClose", async () => realtime.close());
  await app.register(realtimeRoutes, { config, hub: realtime });
  await app.register(liveUsersPlugin, { config, hub: realtime, sharedState });
  await app.register(paymentsPlugin, {
    config,
    database,
    chain,
    sharedState,
    sessions: sessionCache,
    hub: realtime,
    now: deps.payments?.now,
    runtime: deps.payments?.runtime,
    publicCacheClock: deps.payments?.publicCacheClock,
    onRuntime: (runtime) => {
      payments = runtime;
      app.decorate("payments", runtime);
    },
    onPublicRead: (read) => {
      publicRead = read;
    },
    onEventsCommitted: () => notifications?.wake(),
  });
  const mailer =
    deps.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
      log: app.log,
      logText: config.env !== "production",
    });
  const retention = startRetention({ db: database.db, log: app.log });
  app.addHook("onClose", () => retention.stop());
  const sumsCompaction = startSumsCompaction({ db: database.db, log: app.log });
  app.addHook("onClose", () => sumsCompaction.stop());
  let notifications: NotificationsRuntime | null = null;
  await app.register(notificationsPlugin, {
    config,
    database,
    sharedState,
    mailer,
    tokenSymbol: chain?.token.symbol ?? "CPXTB",
    options: deps.notifications,
    onRuntime: (runtime) => {
      notifications = runtime;
      app.decorate("notifications", runtime);
    },
  });
  await app.register(treasuryPlugin, {
    config,
    database,
    chain,
    overrides: deps.treasury,
    onRuntime: (runtime) => {
      treasury = runtime;
      app.decorate("treasury", runtime);
    },
  });
  await app.register(buyPlugin, {
    config,
    database,
    chain,
    treasury,
    sharedState,
    hub: realtime,
    now: deps.treasury?.now,
  });
  await app.register(claimRoutes, {
    deps: {
      db: database.db,
      chain,
      treasury: (treasury as TreasuryRuntime | null)?.treasury ?? null,
      config,
      now: deps.treasury?.now ?? (() => new Date()),
    },
  });
  await app.register(securityRoutes, { challenges, state: sharedState, clientKey });
  const throttle =
    deps.loginThrottle ??
    createLoginThrottle(sharedState, { perAccount: 10, perIp: 100, windowMs: 15 * 60 * 1000 });
  await app.register(authRoutes, {
    db: database.db,
    config,
    sessions: sessionCache,
    mailer,
    throttle,
    challenges,
    clientKey,
    state: sharedState,
  });
  await app.register(twoFactorRoutes, {
    db: database.db,
    state: sharedState,
    config,
    throttle,
    challenges,
    clientKey,
    box: createSecretBox(challengeSecret),
    mailer,
  });
  await app.register(auditRoutes, { db: database.db });
  await app.register(teamRoutes, { db: database.db, config, mailer, sessions: sessionCache });
  await app.register(apiKeyRoutes, { db: database.db, kind: config.apiKeyKind });
  await app.register(siweRoutes, { db: database.db, state: sharedState, chain, config });
  const wallets = createManagedWallets({ db: database.db, config, chain, log: app.log });
  await app.register(socialAuthRoutes, {
    db: database.db,
    state: sharedState,
    config,
    wallets,
    sessions: sessionCache,
  });
  await app.register(walletRoutes, { db: database.db, wallets });
  await app.register(embedRoutes, {
    db: database.db,
    config,
    headers: securityHeaders,
    script: loadEmbedScript(config.clientDist),
  });
  const content = await loadContent(config.contentDir);
  await app.register(contentRoutes, { content, publicUrl: config.publicUrl });
  await app.register(contactRoutes, {
    db: database.db,
    mailer,
    contactEmail: config.contactEmail,
    log: app.log,
  });
  if (deps.extraRoutes) await app.register(deps.extraRoutes);

  if (clientBuild) await registerClientRoutes(app, config.clientDist);
  // Spec section 2: / loads the merchant dashboard and the buy page in idle time, and every page the menu panel;
  // on a server-rendered page the browser prefetches them (fetched, not run; decision 009).
  const homeSources = [
    "src/app/routes/merchant.tsx",
    "src/app/routes/buy-cpxtb.tsx",
    "src/app/data-layer.tsx",
  ];
  const menuSources = ["src/app/side-menu-panel.tsx", "src/app/data-layer.tsx"];
  const menuPrefetch = prefetchLinks(config.clientDist, menuSources, "side-menu").html;
  // `/`, /blog and a post also list their own code (the route and the data layer) first, as the checkout does
  // (decision 036): the app's module loader finds those links in the document instead of adding one per chunk in
  // the task that starts the page (some 25 ms at a phone's CPU speed on /; issue 39). Their prefetch links leave
  // out what the page's code already names.
  const contentHead = (route: string, pages: string[]) => {
    const code = modulePreloads(config.clientDist, [`src/app/routes/${route}.tsx`, "src/app/data-layer.tsx"]);
    const prefetched = prefetchLinks(config.clientDist, pages, "home", code.files);
    const menu = prefetchLinks(config.clientDist, menuSources, "side-menu", prefetched.files);
    return [code.html, prefetched.html, menu.html].filter((links) => links !== "").join("\n    ");
  };
  const homeHead = contentHead("home", homeSources);
  const blogHead = contentHead("blog", []);
  const postHead = contentHead("blog-post", []);
  const contentPageHead = (path: string) =>
    path === "/"
      ? homeHead
      : path === "/blog"
        ? blogHead
        : /^\/blog\/[^/]+$/.test(path)
          ? postHead
          : menuPrefetch;
  // The dashboard's code and its backdrop are asked for beside the entry, not after the entry has run and routed
  // (decision 023). Signed in, the server renders its frame; signed out, the client routes to /auth (decision 025).
  const dashboardPreload =
    '<link rel="preload" as="image" href="/images/backdrop.svg" fetchpriority="high" />';
  const dashboardCode = modulePreloadLinks(config.clientDist, [
    "src/app/routes/merchant.tsx",
    "src/app/data-layer.tsx",
    "src/lib/query-provider.tsx",
    "src/features/live-users/live-users-widget.tsx",
  ]);
  const dashboardHead = `${dashboardPreload}\n    ${dashboardCode}`;
  const serverEntry = clientBuild ? loadServerEntry(config.clientDist) : null;
  // A checkout's own code, preloaded beside the app's in its after-paint template (decision 036).
  const codeLinks = pageCodeLinks(config.clientDist);
  const checkoutCode = (route: string, areas: readonly MessageArea[], locale: Locale) =>
    codeLinks([
      `src/app/routes/${route}.tsx`,
      "src/app/data-layer.tsx",
      ...areas.map((area) => catalogSource(locale, area)),
    ]);
  const render = serverEntry?.render ?? null;
  const pageHtml = clientBuild
    ? createPageHtmlResolver(clientBuild, content, config.publicUrl, {
        render,
        head: contentPageHead,
        clientPageHead: (path) => (path === "/merchant" ? dashboardHead : ""),
      })
    : null;
  // The payer's checkout arrives rendered with the payment's state (decision 017).
  const read = publicRead as ((reference: string) => Promise<PublicPayment>) | null;
  const payPage =
    clientBuild && serverEntry && read
      ? async (request: FastifyRequest, url: { path: string; search: string }, reference: string) =>
          renderPayPage(request, url, reference, {
            index: clientBuild,
            render: serverEntry.render,
            translate: serverEntry.translate,
            publicPayment: read,
            chainConfig: (r) => (chain ? chainConfigView(chain, requestOrigin(config, r)) : null),
            origin: config.publicUrl.replace(/\/+$/, ""),
            pageCode: (path, locale) =>
              path.startsWith("/pay/")
                ? checkoutCode("pay", CHECKOUT_MESSAGE_AREAS, locale)
                : checkoutCode("easy-payment", FRAMED_CHECKOUT_MESSAGE_AREAS, locale),
          })
      : null;

  // A payment link's page arrives rendered with the link, like the pay page (issue 35, decision 017).
  const linkPage =
    clientBuild && serverEntry
      ? (request: FastifyRequest, url: { path: string; search: string }, slug: string) =>
          renderLinkPage(request, url, slug, {
            index: clientBuild,
            render: serverEntry.render,
            publicLink: (s) => getPublicLink(database.db, s),
            translate: serverEntry.translate,
            origin: config.publicUrl.replace(/\/+$/, ""),
            pageCode: (locale) => checkoutCode("link", CHECKOUT_MESSAGE_AREAS, locale),
          })
      : null;

  /** The dashboard's HTML with its frame for a signed-in request, or null: the client's page then (decision 025). */
  const dashboardPage =
    clientBuild && serverEntry
      ? async (
          request: FastifyRequest,
          reply: FastifyReply,
          path: string,
        ): Promise<{ html: string; locale: Locale } | null> => {
          if (!request.cookies[SESSION_COOKIE]) return null;
          try {
            const auth = await resolveAuth(database.db, request, reply);
            if (!auth) return null;
            const allowed = await allowRenderedPage(
              request,
              "general",
              { config, state: sharedState },
              auth.user.id,
            );
            if (!allowed) return null;
            const locale = requestLocale(request);
            const html = await renderDashboardPage(toUserResponse(auth.user), {
              index: clientBuild,
              render: serverEntry.render,
              translate: serverEntry.translate,
              origin: config.publicUrl.replace(/\/+$/, ""),
              preload: dashboardPreload,
              code: dashboardCode,
              locale,
            });
            return html === null ? null : { html, locale };
          } catch (error) {
            // The database away, a render fault: the client's page (its own calls say what is wrong).
            request.log.error(
              { err: error, path },
              "dashboard: server rendering failed; serving the app without it",
            );
            return null;
          }
        }
      : null;

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const isApi = path === "/api" || path.startsWith("/api/");
    const allowed = routes.allowedMethods(path).filter((m) => m !== "HEAD" || request.method !== "HEAD");
    if (allowed.length > 0) {
      return reply
        .status(405)
        .header("Allow", allowed.join(", "))
        .send(errorBody("METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${path}.`));
    }
    const isPageRequest = request.method === "GET" || request.method === "HEAD";
    if (!isApi && isPageRequest && clientBuild && !path.startsWith("/assets/")) {
      const search = request.url.slice(path.length + 1);
      // The embeddable checkout (decision 035): framed only by the origins its business lists.
      const embedded = embedCheckoutReference(path, search);
      if (embedded !== null)
        await allowCheckoutFraming({ db: database.db, headers: securityHeaders }, reply, embedded);
      const embeddedLink = embedLinkSlug(path, search);
      if (embeddedLink !== null)
        await allowLinkFraming({ db: database.db, headers: securityHeaders }, reply, embeddedLink);
      const reference = payPage ? checkoutReference(path, search) : null;
      // Rendering reads the payment: it counts against the public read's limit. Over it, the plain app (its
      // own read of the payment then meets the limit and the challenge).
      if (
        payPage &&
        reference !== null &&
        (await allowRenderedPage(request, "public", { config, state: sharedState }))
      ) {
        try {
          const page = await payPage(request, { path, search }, reference);
          return sendRenderedHtml(request, reply, page.html, page.status, page.locale);
        } catch (error) {
          // The database away, a render fault: the app's own page loads the payment (and says what is wrong).
          request.log.error(
            { err: error, path },
            "pay page: server rendering failed; serving the app without it",
          );
          return sendIndexHtml(request, reply, clientBuild, 200);
        }
      }
      const slug = linkPage ? linkSlugOf(path) : null;
      if (
        linkPage &&
        slug !== null &&
        (await allowRenderedPage(request, "public", { config, state: sharedState }))
      ) {
        try {
          const page = await linkPage(request, { path, search }, slug);
          return sendRenderedHtml(request, reply, page.html, page.status, page.locale);
        } catch (error) {
          request.log.error(
            { err: error, path },
            "link page: server rendering failed; serving the app without it",
          );
          return sendIndexHtml(request, reply, clientBuild, 200);
        }
      }
      const dashboard =
        dashboardPage && isDashboardPath(path) ? await dashboardPage(request, reply, path) : null;
      if (dashboard !== null) return sendRenderedHtml(request, reply, dashboard.html, 200, dashboard.locale);
      if (!pageHtml) return sendIndexHtml(request, reply, clientBuild, isClientRoute(path) ? 200 : 404);
      const page = await pageHtml(request, path);
      return sendIndexHtml(request, reply, page.html, page.status);
    }
    return reply.status(404).send(errorBody("NOT_FOUND", `No such resource: ${request.method} ${path}`));
  });

  await app.ready();
  return app as unknown as App;
}
