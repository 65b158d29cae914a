import { isIP } from "node:net";
import { resolve } from "node:path";
import * as z from "zod";
import { loadSocialConfig, localOnlySite, type SocialConfig, type WalletConfig } from "./config-social.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Environment variables that are unset or blank count as absent, so `FOO=` behaves like no FOO. */
const optionalString = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
  z.string().optional(),
);
const blankAsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema);
const withDefault = <T extends z.ZodType>(schema: T, fallback: z.input<T>) =>
  z.preprocess((v) => (v === undefined || (typeof v === "string" && v.trim() === "") ? fallback : v), schema);

const envSchema = z.object({
  NODE_ENV: withDefault(z.enum(["development", "production", "test"]), "development"),
  HOST: withDefault(z.string().min(1), "127.0.0.1"),
  PORT: withDefault(z.coerce.number().int().min(0).max(65535), 5000),
  DATA_DIR: withDefault(z.string().min(1), "./data"),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  LOG_LEVEL: withDefault(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]), "info"),
  // Shared state (rate limits, live counts, events) across instances; in-process when unset.
  REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
  REDIS_KEY_PREFIX: withDefault(z.string().min(1).max(100), "cpxtb:"),
  // Deadline of one Redis call; past it (or with the connection lost) the instance answers from its own state.
  REDIS_COMMAND_TIMEOUT_MS: withDefault(z.coerce.number().int().min(5).max(5000), 50),
  WS_MAX_MESSAGE_BYTES: withDefault(
    z.coerce
      .number()
      .int()
      .min(128)
      .max(1024 * 1024),
    4096,
  ),
  /** Open /ws connections one client address may hold on one instance; more are refused at the upgrade. */
  WS_MAX_CONNECTIONS_PER_ADDRESS: withDefault(z.coerce.number().int().min(1).max(100_000), 50),
  WS_PING_INTERVAL_MS: withDefault(z.coerce.number().int().min(50).max(600_000), 30_000),
  INSTANCE_HEARTBEAT_MS: withDefault(z.coerce.number().int().min(50).max(60_000), 5000),
  // Rate limits per client and route group, as "<requests>/<window>" with a window like 60s, 10m, 1h.
  RATE_LIMIT_GENERAL: withDefault(rateLimitSpec(), "60/60s"),
  RATE_LIMIT_AUTH: withDefault(rateLimitSpec(), "10/60s"),
  RATE_LIMIT_CONTACT: withDefault(rateLimitSpec(), "5/10m"),
  RATE_LIMIT_CLAIM: withDefault(rateLimitSpec(), "5/1h"),
  RATE_LIMIT_PUBLIC: withDefault(rateLimitSpec(), "600/60s"),
  RATE_LIMIT_VERIFY: withDefault(rateLimitSpec(), "10/60s"),
  /** The server-to-server API (/api/v1), counted per API key (per IP for requests without a valid key). */
  RATE_LIMIT_API: withDefault(rateLimitSpec(), "300/60s"),
  /** Signed-in requests of ordinary routes, counted per account: sized so that ordinary use never meets it. */
  RATE_LIMIT_ACCOUNT: withDefault(rateLimitSpec(), "600/60s"),
  /** Signs challenge tokens; falls back to SESSION_SECRET, then to a secret generated under DATA_DIR. */
  CHALLENGE_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  BODY_LIMIT_BYTES: withDefault(
    z.coerce
      .number()
      .int()
      .min(1024)
      .max(50 * 1024 * 1024),
    1024 * 1024,
  ),
  TRUST_PROXY: withDefault(trustProxySpec(), "false"),
  CLIENT_DIST: withDefault(z.string().min(1), "./dist/client"),
  // Email. Without SMTP_URL, messages go to a development mailbox under DATA_DIR (and the log).
  SMTP_URL: optionalString.pipe(
    z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  ),
  MAIL_FROM: withDefault(z.string().min(3), "CPXTB Pay <no-reply@cpxtb-pay.local>"),
  // Where contact-form messages are emailed (the team's inbox).
  CONTACT_EMAIL: withDefault(z.email(), "team@cpxtb-pay.local"),
  // Markdown of the blog and legal pages (blog/*.md, legal/*.md), read at start.
  CONTENT_DIR: withDefault(z.string().min(1), "./content"),
  // Chain. With no RPC_URL the server starts an embedded anvil chain (development); see docs/chain.md.
  RPC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  RPC_FALLBACK_URLS: withDefault(
    z
      .string()
      .transform((v) =>
        v
          .split(",")
          .map((u) => u.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.url({ protocol: /^https?$/ }))),
    "",
  ),
  RPC_TIMEOUT_MS: withDefault(z.coerce.number().int().min(100).max(60_000), 4000),
  /** A URL browsers may use for the token's chain (wallet "add chain"); never the keyed RPC_URL. */
  RPC_PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  CHAIN_ID: blankAsAbsent(z.coerce.number().int().positive().optional()),
  TOKEN_ADDRESS: optionalString.pipe(
    z.string().regex(ADDRESS, "must be a 0x-prefixed 20-byte hex address").optional(),
  ),
  CONFIRMATIONS: blankAsAbsent(z.coerce.number().int().min(1).max(1000).optional()),
  /** Payment indexer: how often it polls the head, blocks per eth_getLogs, and where it starts without a cursor. */
  INDEXER_POLL_MS: blankAsAbsent(z.coerce.number().int().min(50).max(60_000).optional()),
  INDEXER_MAX_RANGE: withDefault(z.coerce.number().int().min(1).max(10_000), 500),
  INDEXER_START_BLOCK: blankAsAbsent(z.coerce.bigint().min(0n).optional()),
  BALANCE_CACHE_SECONDS: withDefault(z.coerce.number().min(0).max(300), 5),
  PRICE_SOURCE: optionalString.pipe(z.enum(["fixed", "pool"]).optional()),
  FIXED_PRICE_USD: withDefault(
    z.string().regex(/^\d{1,12}(\.\d{1,18})?$/, "must be a decimal like 0.01"),
    "0.01",
  ),
  PRICE_MAX_AGE_SECONDS: withDefault(z.coerce.number().int().min(1), 3600),
  PRICE_CACHE_SECONDS: withDefault(z.coerce.number().min(0).max(3600), 15),
  PRICE_POOL_ADDRESS: optionalString.pipe(
    z.string().regex(ADDRESS, "must be a 0x-prefixed 20-byte hex address").optional(),
  ),
  ETH_USD_FEED_ADDRESS: optionalString.pipe(
    z.string().regex(ADDRESS, "must be a 0x-prefixed 20-byte hex address").optional(),
  ),
  // Treasury (decision 013): the account that sends CPXTB for purchases and claims.
  TREASURY_PRIVATE_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
      .optional(),
  ),
  TREASURY_DAILY_CAP_CPXTB: withDefault(decimalString(), "100000"),
  TREASURY_LOW_BALANCE_CPXTB: withDefault(decimalString(), "1000"),
  TREASURY_LOW_BALANCE_ETH: withDefault(decimalString(), "0.01"),
  TREASURY_STUCK_SECONDS: withDefault(z.coerce.number().int().min(5).max(86_400), 120),
  TREASURY_POLL_MS: withDefault(z.coerce.number().int().min(50).max(60_000), 1000),
  BUY_MIN_USD: withDefault(decimalString(), "1"),
  BUY_MAX_USD: withDefault(decimalString(), "1000"),
  BUY_QUOTE_MINUTES: withDefault(z.coerce.number().int().min(1).max(120), 10),
  CLAIMS_ENABLED: withDefault(
    z.enum(["true", "false"]).transform((v) => v === "true"),
    "true",
  ),
  CLAIM_AMOUNT_CPXTB: withDefault(decimalString(), "10"),
  CLAIM_DAILY_BUDGET_CPXTB: withDefault(decimalString(), "1000"),
  /** Block explorer for transaction links ("View on BaseScan"); none on the embedded chain. */
  EXPLORER_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  PAYPAL_CLIENT_ID: optionalString,
  PAYPAL_CLIENT_SECRET: optionalString,
  PAYPAL_API_BASE: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /**
   * Lets webhook endpoints be http:// and point at loopback or private addresses. For development and tests (the
   * e2e server sets it); in production it would let a merchant make the server call its own network (decision 016).
   */
  WEBHOOKS_ALLOW_PRIVATE: withDefault(
    z.enum(["true", "false"]).transform((v) => v === "true"),
    "false",
  ),
});

function decimalString() {
  return z.string().regex(/^\d{1,15}(\.\d{1,18})?$/, "must be a decimal like 10 or 0.5");
}

/** Production defaults: CPXTB on Base. */
export const BASE_CHAIN_ID = 8453;
export const BASE_CPXTB_TOKEN = "0x96a0Cc3c0fc5d07818E763E1B25bc78ab4170D1b";
/** Chainlink ETH/USD price feed (proxy) on Base mainnet. */
export const BASE_ETH_USD_FEED = "0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70";
export const ANVIL_CHAIN_ID = 31337;

export type ChainConfig = {
  /** Primary RPC first, then fallbacks; empty = start the embedded development chain. */
  rpcUrls: string[];
  rpcTimeoutMs: number;
  rpcPublicUrl: string | undefined;
  chainId: number;
  /** Undefined only in embedded mode, where the address comes from the local deployment. */
  tokenAddress: `0x${string}` | undefined;
  confirmations: number;
  balanceCacheMs: number;
  price: {
    source: "fixed" | "pool";
    fixedUsd: string;
    maxAgeSeconds: number;
    cacheMs: number;
    poolAddress: `0x${string}` | undefined;
    ethUsdFeedAddress: `0x${string}` | undefined;
  };
};

export type Config = {
  env: "development" | "production" | "test";
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  /**
   * The one origin the site is reached at (decision 010): every absolute link, the SIWE domain, Secure cookies.
   * PUBLIC_URL, or (development, and `npm start` fully embedded on a loopback HOST) the listen address.
   */
  publicUrl: string;
  /** True when publicUrl is the listen address rather than PUBLIC_URL. */
  publicUrlFromListen: boolean;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  redisCommandTimeoutMs: number;
  realtime: RealtimeConfig;
  rateLimits: Record<RateLimitGroup, RateLimit>;
  /** Replaces the `general` limit for signed-in requests, counted per account. */
  accountRateLimit: RateLimit;
  /** Undefined when neither CHALLENGE_SECRET nor SESSION_SECRET is set: one is generated under dataDir. */
  challengeSecret: string | undefined;
  bodyLimitBytes: number;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses/CIDRs. */
  trustProxy: TrustProxy;
  clientDist: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  contactEmail: string;
  contentDir: string;
  chain: ChainConfig;
  payments: PaymentsConfig;
  /** Social sign-in providers and managed wallets (config-social.ts). */
  social: SocialConfig;
  wallet: WalletConfig;
  treasury: TreasuryConfig;
  buy: BuyConfig;
  claims: ClaimsConfig;
  /** Transaction links: `${explorerUrl}/tx/${hash}`; none on the embedded chain. */
  explorerUrl: string | undefined;
  paypal: { clientId: string; clientSecret: string; apiBase: string } | undefined;
  webhooks: WebhooksConfig;
  /**
   * Which kind of deployment makes and accepts API keys: `test` on a development install (the embedded chain:
   * `cpx_test_…` keys, test tokens), `live` on a real chain (`cpx_live_…`). A key works only where its kind is made.
   */
  apiKeyKind: "test" | "live";
  embed: EmbedConfig;
};

export type EmbedConfig = {
  /**
   * Pay-button origins may be http://localhost or http://127.0.0.1 (decision 035): on a development server only,
   * that is NODE_ENV other than production, or a site only this machine reaches (`localOnlySite`, as e2e runs).
   */
  allowLoopbackHttp: boolean;
};

export type WebhooksConfig = {
  /** http:// and loopback/private targets allowed (WEBHOOKS_ALLOW_PRIVATE; never in production). */
  allowPrivate: boolean;
  /**
   * A development install (embedded chain, listening on loopback): `http://127.0.0.1` and `http://localhost`
   * endpoints are allowed so webhooks can be tried on a fresh install; every other private or reserved address
   * stays refused. Never on a real chain.
   */
  allowLoopback?: boolean;
};

export type TreasuryConfig = {
  /** Embedded mode fills in a development key in start-server.ts; absent elsewhere = no treasury (buy and claim refuse). */
  privateKey: `0x${string}` | undefined;
  /** Whole tokens as decimal strings (converted with the token's decimals read from the chain). */
  dailyCapTokens: string;
  lowBalanceTokens: string;
  lowBalanceEth: string;
  stuckAfterMs: number;
  pollMs: number;
};

export type BuyConfig = { minUsd: string; maxUsd: string; quoteMinutes: number };
export type ClaimsConfig = { enabled: boolean; amountTokens: string; dailyBudgetTokens: string };

export type PaymentsConfig = {
  indexerPollMs: number;
  indexerMaxRange: number;
  /** First block to scan when the database has no cursor yet; undefined = the head at first start. */
  indexerStartBlock: bigint | undefined;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Reads the whole configuration at once and reports every bad variable, not just the first. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const chain = chainConfig(e);
  const origin = publicOrigin(e);
  const social = loadSocialConfig(env, e.NODE_ENV, { publicUrl: origin.url, host: e.HOST });
  const problems = [...chain.problems, ...social.problems, ...origin.problems];
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    publicUrl: origin.url,
    publicUrlFromListen: origin.fromListen,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    realtime: {
      maxMessageBytes: e.WS_MAX_MESSAGE_BYTES,
      pingIntervalMs: e.WS_PING_INTERVAL_MS,
      heartbeatMs: e.INSTANCE_HEARTBEAT_MS,
      broadcastDelayMs: 100,
      maxConnectionsPerAddress: e.WS_MAX_CONNECTIONS_PER_ADDRESS,
    },
    rateLimits: {
      general: e.RATE_LIMIT_GENERAL,
      auth: e.RATE_LIMIT_AUTH,
      contact: e.RATE_LIMIT_CONTACT,
      claim: e.RATE_LIMIT_CLAIM,
      public: e.RATE_LIMIT_PUBLIC,
      verify: e.RATE_LIMIT_VERIFY,
      api: e.RATE_LIMIT_API,
    },
    accountRateLimit: e.RATE_LIMIT_ACCOUNT,
    challengeSecret: e.CHALLENGE_SECRET ?? (env.SESSION_SECRET?.trim() || undefined),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    trustProxy: e.TRUST_PROXY,
    clientDist: resolve(e.CLIENT_DIST),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    contactEmail: e.CONTACT_EMAIL,
    contentDir: resolve(e.CONTENT_DIR),
    chain: chain.config,
    payments: {
      // An idle poll is one eth_getBlockByNumber call, so polling often is cheap; the pay page must turn green
      // <= 1 s after the confirming block (DESIGN.md). Embedded anvil mines on demand: poll it more often still.
      indexerPollMs: e.INDEXER_POLL_MS ?? (e.RPC_URL ? 500 : 100),
      indexerMaxRange: e.INDEXER_MAX_RANGE,
      indexerStartBlock: e.INDEXER_START_BLOCK,
    },
    social: social.social,
    wallet: social.wallet,
    treasury: {
      privateKey: e.TREASURY_PRIVATE_KEY as `0x${string}` | undefined,
      dailyCapTokens: e.TREASURY_DAILY_CAP_CPXTB,
      lowBalanceTokens: e.TREASURY_LOW_BALANCE_CPXTB,
      lowBalanceEth: e.TREASURY_LOW_BALANCE_ETH,
      stuckAfterMs: e.TREASURY_STUCK_SECONDS * 1000,
      pollMs: e.TREASURY_POLL_MS,
    },
    buy: { minUsd: e.BUY_MIN_USD, maxUsd: e.BUY_MAX_USD, quoteMinutes: e.BUY_QUOTE_MINUTES },
    claims: {
      enabled: e.CLAIMS_ENABLED,
      amountTokens: e.CLAIM_AMOUNT_CPXTB,
      dailyBudgetTokens: e.CLAIM_DAILY_BUDGET_CPXTB,
    },
    explorerUrl: (
      e.EXPLORER_URL ??
      (chain.config.chainId === BASE_CHAIN_ID && e.RPC_URL ? "https://basescan.org" : undefined)
    )?.replace(/\/$/, ""),
    paypal:
      e.PAYPAL_CLIENT_ID && e.PAYPAL_CLIENT_SECRET && e.PAYPAL_API_BASE
        ? {
            clientId: e.PAYPAL_CLIENT_ID,
            clientSecret: e.PAYPAL_CLIENT_SECRET,
            apiBase: e.PAYPAL_API_BASE.replace(/\/$/, ""),
          }
        : undefined,
    webhooks: {
      allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
      allowLoopback: chain.config.rpcUrls.length === 0 && LOOPBACK_HOST.test(e.HOST),
    },
    apiKeyKind: chain.config.rpcUrls.length === 0 ? "test" : "live",
    embed: {
      allowLoopbackHttp:
        e.NODE_ENV !== "production" || localOnlySite({ publicUrl: origin.url, host: e.HOST }),
    },
  };
}

type Env = z.infer<typeof envSchema>;

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * The public origin (decision 010). PUBLIC_URL when set. Without it, the listen address: always in development
 * and test; in production only when nothing about the server is a real deployment (fully embedded: no
 * DATABASE_URL, REDIS_URL, RPC_URL or SMTP_URL) and it listens on loopback, which is `npm start` on a fresh
 * machine. A loopback listen address is named `localhost`, as the start banner prints it.
 */
function publicOrigin(e: Env): { url: string; fromListen: boolean; problems: string[] } {
  if (e.PUBLIC_URL) return { url: new URL(e.PUBLIC_URL).origin, fromListen: false, problems: [] };
  const problems: string[] = [];
  const loopback = LOOPBACK_HOST.test(e.HOST);
  if (e.NODE_ENV === "production") {
    const deployed = (["DATABASE_URL", "REDIS_URL", "RPC_URL", "SMTP_URL"] as const).filter(
      (name) => e[name],
    );
    if (deployed.length > 0) {
      problems.push(
        `PUBLIC_URL: required when NODE_ENV=production with ${deployed.join(", ")} set (the origin people reach the site at, e.g. https://pay.example.com)`,
      );
    } else if (!loopback) {
      problems.push(
        `PUBLIC_URL: required when NODE_ENV=production and HOST (${e.HOST}) is reachable from other machines (e.g. PUBLIC_URL=http://192.168.1.10:${e.PORT || 5000})`,
      );
    }
  }
  if (e.PORT === 0)
    problems.push("PUBLIC_URL: required with PORT=0 (the listen address is not known in advance)");
  const wildcard = e.HOST === "0.0.0.0" || e.HOST === "::" || e.HOST === "[::]";
  const host = loopback || wildcard ? "localhost" : isIP(e.HOST) === 6 ? `[${e.HOST}]` : e.HOST;
  return { url: `http://${host}:${e.PORT}`, fromListen: true, problems };
}

function chainConfig(e: z.infer<typeof envSchema>): { config: ChainConfig; problems: string[] } {
  const problems: string[] = [];
  const embedded = !e.RPC_URL;
  const chainId = e.CHAIN_ID ?? (embedded ? ANVIL_CHAIN_ID : BASE_CHAIN_ID);
  const onBase = chainId === BASE_CHAIN_ID;
  const tokenAddress = (e.TOKEN_ADDRESS ?? (onBase && !embedded ? BASE_CPXTB_TOKEN : undefined)) as
    | `0x${string}`
    | undefined;
  if (!embedded && !tokenAddress) problems.push(`TOKEN_ADDRESS: required with RPC_URL on chain ${chainId}`);
  if (embedded && e.RPC_FALLBACK_URLS.length > 0) problems.push("RPC_FALLBACK_URLS: set RPC_URL too");
  const source = e.PRICE_SOURCE ?? (embedded ? "fixed" : "pool");
  const ethUsdFeedAddress = (e.ETH_USD_FEED_ADDRESS ??
    (onBase && !embedded ? BASE_ETH_USD_FEED : undefined)) as `0x${string}` | undefined;
  // Embedded mode deploys its own pool and feed, so they are only required against a real chain.
  if (source === "pool" && !embedded) {
    if (!e.PRICE_POOL_ADDRESS) problems.push("PRICE_POOL_ADDRESS: required when PRICE_SOURCE is pool");
    if (!ethUsdFeedAddress) problems.push("ETH_USD_FEED_ADDRESS: required when PRICE_SOURCE is pool");
  }
  return {
    problems,
    config: {
      rpcUrls: e.RPC_URL ? [e.RPC_URL, ...e.RPC_FALLBACK_URLS] : [],
      rpcTimeoutMs: e.RPC_TIMEOUT_MS,
      rpcPublicUrl: e.RPC_PUBLIC_URL,
      chainId,
      tokenAddress,
      confirmations: e.CONFIRMATIONS ?? (embedded ? 1 : 3),
      balanceCacheMs: e.BALANCE_CACHE_SECONDS * 1000,
      price: {
        source,
        fixedUsd: e.FIXED_PRICE_USD,
        maxAgeSeconds: e.PRICE_MAX_AGE_SECONDS,
        cacheMs: e.PRICE_CACHE_SECONDS * 1000,
        poolAddress: e.PRICE_POOL_ADDRESS as `0x${string}` | undefined,
        ethUsdFeedAddress,
      },
    },
  };
}

/** A configuration for tests: defaults plus overrides, no environment read. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Tests with Redis are about sharing: a busy machine's Redis answering after the production 50 ms deadline
  // must not turn a shared count into a per-instance one (the deadline's own tests set theirs).
  const env = { NODE_ENV: "test", LOG_LEVEL: "silent", REDIS_COMMAND_TIMEOUT_MS: "2000" };
  return { ...loadConfig(env), ...overrides };
}

export type RealtimeConfig = {
  /** Larger WebSocket messages close the sender's connection (1009). */
  maxMessageBytes: number;
  /** A client that has not answered the previous ping when the next is due is dropped. */
  pingIntervalMs: number;
  /** How often an instance publishes its own connection count; it expires after three missed beats. */
  heartbeatMs: number;
  /** Count changes are coalesced over this delay, so a burst of connections sends one broadcast. */
  broadcastDelayMs: number;
  /** Open connections per client address on one instance; the next upgrade is answered 429. */
  maxConnectionsPerAddress: number;
};

/**
 * Route groups of the rate limiter: `general` is every API route not named otherwise; `public` serves content
 * crawlers read; `verify` is the challenge answer itself; `api` is the server-to-server API (/api/v1).
 */
export type RateLimitGroup = "general" | "auth" | "contact" | "claim" | "public" | "verify" | "api";
export type RateLimit = { limit: number; windowMs: number };

const WINDOW_UNITS = { s: 1000, m: 60_000, h: 3_600_000 } as const;

export type TrustProxy = false | number | string[];

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrCidr(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, prefix, extra] = entry.split("/");
  const version = isIP(address ?? "");
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix) && !(version === 4 && isIP(prefix) === 4)) return false;
  return isIP(prefix) === 4 || Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `false`; a number of proxies in front (the client is the address that many hops back in
 * X-Forwarded-For); or the proxies' addresses/CIDRs, comma-separated. `true` (trust every hop, so the
 * client-supplied left-most address) is refused: it lets anyone choose their address for the rate limits.
 */
function trustProxySpec() {
  return z.string().transform((raw, ctx): TrustProxy => {
    const v = raw.trim();
    if (v === "false" || v === "0") return false;
    if (/^\d{1,2}$/.test(v)) return Number(v);
    if (v === "true") {
      ctx.addIssue({
        code: "custom",
        message:
          'give the number of proxies in front (e.g. 1) or their addresses/CIDRs; "true" would trust a client-chosen X-Forwarded-For',
      });
      return z.NEVER;
    }
    const entries = v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = entries.filter((entry) => !isAddressOrCidr(entry));
    if (entries.length === 0 || bad.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `must be false, a hop count or a comma-separated list of IP addresses/CIDRs (not: ${bad.join(", ") || v})`,
      });
      return z.NEVER;
    }
    return entries;
  });
}

function rateLimitSpec() {
  return z
    .string()
    .regex(/^\d{1,6}\/\d{1,5}[smh]$/, 'must look like "30/60s" (requests per window; window in s, m or h)')
    .transform((v, ctx): RateLimit => {
      const [count, window] = v.split("/") as [string, string];
      const unit = window.at(-1) as keyof typeof WINDOW_UNITS;
      const windowMs = Number(window.slice(0, -1)) * WINDOW_UNITS[unit];
      const limit = Number(count);
      if (limit < 1 || windowMs < 1000 || windowMs > 86_400_000) {
        ctx.addIssue({ code: "custom", message: "needs at least 1 request and a window from 1s to 24h" });
        return z.NEVER;
      }
      return { limit, windowMs };
    });
}
