import { SOCIAL_PROVIDERS, type SocialProvider } from "@common/social.ts";

/**
 * Social sign-in and managed-wallet settings, read from the environment beside config.ts (docs/operations.md).
 * Every provider endpoint can be pointed elsewhere, so tests and self-hosters can use another server.
 */
export type SocialProviderConfig = {
  provider: SocialProvider;
  /** OpenID Connect (id_token checked, nonce) or plain OAuth 2 with a user endpoint. */
  protocol: "oidc" | "oauth2";
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** OIDC: the issuer (discovery at <issuer>/.well-known/openid-configuration, and the id_token's `iss`). */
  issuer: string | undefined;
  authorizationUrl: string | undefined;
  tokenUrl: string | undefined;
  userinfoUrl: string | undefined;
  jwksUrl: string | undefined;
  scope: string;
  /** Apple answers with a cross-site form POST to the callback. */
  responseMode: "query" | "form_post";
  /** How the client authenticates at the token endpoint. */
  tokenAuth: "client_secret_post" | "client_secret_basic";
};

export type SocialConfig = {
  providers: Record<SocialProvider, SocialProviderConfig>;
  /**
   * A provider without credentials is stood in for by the development sign-in page, where anyone becomes any
   * identity by typing an email. So by default only on a site reachable from this machine alone (`localOnlySite`:
   * an http public origin on a loopback name, served on a loopback address, as `npm start` on a fresh machine
   * is), whatever NODE_ENV says. SOCIAL_DEV_LOGIN=true|false overrides; the start warns while it is on.
   */
  developmentPage: boolean;
};

export type WalletConfig = {
  /** BIP-39 mnemonic or 0x-hex seed (16-64 bytes); undefined = generated under DATA_DIR (not in production). */
  masterSeed: string | undefined;
  /** False in a real deployment (production with RPC_URL): the seed must then come from WALLET_MASTER_SEED. */
  allowGeneratedSeed: boolean;
  /** Pays the gas of managed wallets; undefined = anvil's account #7 on the development chain (#4 is the treasury), else none. */
  gasPrivateKey: `0x${string}` | undefined;
  /** Most CPXTB (whole tokens, decimal string) one managed wallet may send in 24 hours. */
  dailyLimitTokens: string;
  /** ETH sent to a managed wallet that lacks gas, in wei. */
  gasTopUpWei: bigint;
};

const DEFAULTS: Record<
  SocialProvider,
  Omit<SocialProviderConfig, "clientId" | "clientSecret" | "provider">
> = {
  google: {
    protocol: "oidc",
    issuer: "https://accounts.google.com",
    authorizationUrl: undefined,
    tokenUrl: undefined,
    userinfoUrl: undefined,
    jwksUrl: undefined,
    scope: "openid profile email",
    responseMode: "query",
    tokenAuth: "client_secret_post",
  },
  apple: {
    protocol: "oidc",
    issuer: "https://appleid.apple.com",
    authorizationUrl: undefined,
    tokenUrl: undefined,
    userinfoUrl: undefined,
    jwksUrl: undefined,
    scope: "openid name email",
    responseMode: "form_post",
    tokenAuth: "client_secret_post",
  },
  facebook: {
    protocol: "oauth2",
    issuer: undefined,
    authorizationUrl: "https://www.facebook.com/v19.0/dialog/oauth",
    tokenUrl: "https://graph.facebook.com/v19.0/oauth/access_token",
    userinfoUrl: "https://graph.facebook.com/me?fields=id,name,email",
    jwksUrl: undefined,
    scope: "public_profile email",
    responseMode: "query",
    tokenAuth: "client_secret_post",
  },
  twitter: {
    protocol: "oauth2",
    issuer: undefined,
    authorizationUrl: "https://x.com/i/oauth2/authorize",
    tokenUrl: "https://api.x.com/2/oauth2/token",
    userinfoUrl: "https://api.x.com/2/users/me",
    jwksUrl: undefined,
    scope: "users.read tweet.read",
    responseMode: "query",
    tokenAuth: "client_secret_basic",
  },
};

const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());

function httpUrl(name: string, value: string | undefined, problems: string[]): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === "https:" || url.protocol === "http:") return url.toString().replace(/\/$/, "");
  } catch {}
  problems.push(`${name}: must be an http(s) URL`);
  return undefined;
}

/** Where the server is reached: its public origin and the address it listens on (decision 010). */
export type SiteAddress = { publicUrl: string; host: string };

const LOOPBACK_NAME = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * Whether only this machine can reach the site: the public origin is http:// on a loopback name (localhost,
 * 127.x.x.x, [::1]) and the server listens on a loopback address (not 0.0.0.0, which other machines reach).
 * An https origin, a real host name, or a wildcard listen address is a site others reach (decision 010).
 */
export function localOnlySite(site: SiteAddress): boolean {
  let url: URL;
  try {
    url = new URL(site.publicUrl);
  } catch {
    return false;
  }
  return url.protocol === "http:" && LOOPBACK_NAME.test(url.hostname) && LOOPBACK_NAME.test(site.host);
}

export function loadSocialConfig(
  env: NodeJS.ProcessEnv,
  nodeEnv: "development" | "production" | "test",
  site: SiteAddress,
): { social: SocialConfig; wallet: WalletConfig; problems: string[] } {
  const problems: string[] = [];
  const realDeployment = nodeEnv === "production" && blank(env.RPC_URL) !== undefined;
  const devLogin = blank(env.SOCIAL_DEV_LOGIN);
  if (devLogin && devLogin !== "true" && devLogin !== "false")
    problems.push("SOCIAL_DEV_LOGIN: must be true or false");
  const providers = {} as Record<SocialProvider, SocialProviderConfig>;
  for (const provider of SOCIAL_PROVIDERS) {
    const p = provider.toUpperCase();
    const d = DEFAULTS[provider];
    const clientId = blank(env[`${p}_CLIENT_ID`]);
    const clientSecret = blank(env[`${p}_CLIENT_SECRET`]);
    if (clientId && !clientSecret) problems.push(`${p}_CLIENT_SECRET: required with ${p}_CLIENT_ID`);
    providers[provider] = {
      provider,
      protocol: d.protocol,
      clientId,
      clientSecret,
      issuer: httpUrl(`${p}_ISSUER`, blank(env[`${p}_ISSUER`]), problems) ?? d.issuer,
      authorizationUrl:
        httpUrl(`${p}_AUTHORIZATION_URL`, blank(env[`${p}_AUTHORIZATION_URL`]), problems) ??
        d.authorizationUrl,
      tokenUrl: httpUrl(`${p}_TOKEN_URL`, blank(env[`${p}_TOKEN_URL`]), problems) ?? d.tokenUrl,
      userinfoUrl: httpUrl(`${p}_USERINFO_URL`, blank(env[`${p}_USERINFO_URL`]), problems) ?? d.userinfoUrl,
      jwksUrl: httpUrl(`${p}_JWKS_URL`, blank(env[`${p}_JWKS_URL`]), problems) ?? d.jwksUrl,
      scope: blank(env[`${p}_SCOPE`]) ?? d.scope,
      responseMode: d.responseMode,
      tokenAuth: d.tokenAuth,
    };
  }
  const masterSeed = blank(env.WALLET_MASTER_SEED);
  if (masterSeed && !isSeed(masterSeed)) {
    problems.push(
      "WALLET_MASTER_SEED: must be a BIP-39 mnemonic (12-24 words) or a 0x-hex seed of 16-64 bytes",
    );
  }
  if (!masterSeed && realDeployment) {
    problems.push("WALLET_MASTER_SEED: required in production (managed wallets hold real funds)");
  }
  const gasPrivateKey = blank(env.GAS_PRIVATE_KEY);
  if (gasPrivateKey && !/^0x[0-9a-fA-F]{64}$/.test(gasPrivateKey)) {
    problems.push("GAS_PRIVATE_KEY: must be a 0x-prefixed 32-byte hex private key");
  }
  const dailyLimitTokens = blank(env.MANAGED_WALLET_DAILY_LIMIT) ?? "1000";
  if (!/^\d{1,12}(\.\d{1,6})?$/.test(dailyLimitTokens)) {
    problems.push("MANAGED_WALLET_DAILY_LIMIT: must be a decimal number of tokens like 1000");
  }
  const topUp = blank(env.GAS_TOP_UP_WEI) ?? "1000000000000000";
  if (!/^\d{1,30}$/.test(topUp)) problems.push("GAS_TOP_UP_WEI: must be an integer amount of wei");
  return {
    problems,
    social: { providers, developmentPage: devLogin ? devLogin === "true" : localOnlySite(site) },
    wallet: {
      masterSeed,
      allowGeneratedSeed: !realDeployment,
      gasPrivateKey: gasPrivateKey as `0x${string}` | undefined,
      dailyLimitTokens,
      gasTopUpWei: /^\d{1,30}$/.test(topUp) ? BigInt(topUp) : 0n,
    },
  };
}

function isSeed(value: string): boolean {
  if (/^0x[0-9a-fA-F]+$/.test(value))
    return value.length >= 34 && value.length <= 130 && value.length % 2 === 0;
  const words = value.split(/\s+/);
  return [12, 15, 18, 21, 24].includes(words.length) && words.every((w) => /^[a-z]+$/.test(w));
}

/**
 * The start's warning while the development sign-in page stands in for a provider (null when it does not): on a
 * site others can reach, anyone could sign in as anyone with it.
 */
export function developmentSignInWarning(social: SocialConfig, site: SiteAddress): string | null {
  if (!social.developmentPage) return null;
  const standIns = SOCIAL_PROVIDERS.filter((p) => !social.providers[p].clientId);
  if (standIns.length === 0) return null;
  const reach = localOnlySite(site)
    ? "The site is reachable from this machine only."
    : `The site (${site.publicUrl}) is reachable from other machines: anyone there can sign in as anyone.`;
  return `Development sign-in page ON for ${standIns.join(", ")} (no client credentials): whoever opens the site types any name and email and is signed in as that identity. ${reach} Set the providers' *_CLIENT_ID and *_CLIENT_SECRET, or SOCIAL_DEV_LOGIN=false, before real people use it.`;
}
