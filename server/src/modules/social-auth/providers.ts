import type { SocialProvider } from "@common/social.ts";
import * as oidc from "openid-client";
import type { SocialProviderConfig } from "../../config-social.ts";
import { AppError } from "../../errors.ts";

/** Who the provider says signed in. `subject` is the provider's stable id: the only thing accounts are found by. */
export type ProviderIdentity = {
  subject: string;
  name: string | null;
  email: string | null;
  emailVerified: boolean;
};

export type ProviderClient = {
  provider: SocialProvider;
  protocol: "oidc" | "oauth2";
  authorizationUrl(params: {
    redirectUri: string;
    state: string;
    codeChallenge: string;
    nonce: string;
  }): Promise<URL>;
  /** Exchanges the code (state, PKCE and, for OIDC, nonce and the id_token checked by openid-client). */
  exchange(
    callbackUrl: URL,
    checks: { state: string; codeVerifier: string; nonce: string },
  ): Promise<ProviderIdentity>;
};

const allowHttp = (url: string | undefined) => url?.startsWith("http:") ?? false;

/** A provider's openid-client configuration: discovered from the issuer, or built from explicit endpoints. */
function configurationLoader(cfg: SocialProviderConfig): () => Promise<oidc.Configuration> {
  let pending: Promise<oidc.Configuration> | null = null;
  const auth =
    cfg.tokenAuth === "client_secret_basic"
      ? oidc.ClientSecretBasic(cfg.clientSecret)
      : oidc.ClientSecretPost(cfg.clientSecret);
  const build = async () => {
    const insecure = [cfg.issuer, cfg.authorizationUrl, cfg.tokenUrl, cfg.jwksUrl].some(allowHttp);
    const explicit = cfg.authorizationUrl && cfg.tokenUrl;
    let config: oidc.Configuration;
    if (cfg.protocol === "oidc" && !explicit) {
      config = await oidc.discovery(new URL(cfg.issuer!), cfg.clientId!, undefined, auth, {
        execute: insecure ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      });
    } else {
      config = new oidc.Configuration(
        {
          // OAuth 2 providers have no issuer; the authorization endpoint's origin stands in (never checked).
          issuer: cfg.issuer ?? new URL(cfg.authorizationUrl!).origin,
          authorization_endpoint: cfg.authorizationUrl,
          token_endpoint: cfg.tokenUrl,
          userinfo_endpoint: cfg.userinfoUrl,
          jwks_uri: cfg.jwksUrl,
        },
        cfg.clientId!,
        undefined,
        auth,
      );
      if (insecure) oidc.allowInsecureRequests(config);
    }
    return config;
  };
  return () => {
    // A failed discovery is retried on the next sign-in instead of being remembered.
    pending ??= build().catch((error) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}

export function createProviderClient(cfg: SocialProviderConfig): ProviderClient {
  const load = configurationLoader(cfg);
  const label = cfg.provider;
  const unreachable = (error: unknown) =>
    new AppError("BAD_GATEWAY", `Could not reach ${label} to complete the sign-in. Try again in a moment.`, {
      reason: error instanceof Error ? error.message.slice(0, 200) : String(error),
    });
  return {
    provider: cfg.provider,
    protocol: cfg.protocol,
    async authorizationUrl({ redirectUri, state, codeChallenge, nonce }) {
      const config = await load().catch((e) => {
        throw unreachable(e);
      });
      const params: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: cfg.scope,
        response_type: "code",
        state,
        code_challenge: codeChallenge,
        code_challenge_method: "S256",
      };
      if (cfg.protocol === "oidc") params.nonce = nonce;
      if (cfg.responseMode === "form_post") params.response_mode = "form_post";
      return oidc.buildAuthorizationUrl(config, params);
    },
    async exchange(callbackUrl, checks) {
      const config = await load().catch((e) => {
        throw unreachable(e);
      });
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          expectedState: checks.state,
          pkceCodeVerifier: checks.codeVerifier,
          ...(cfg.protocol === "oidc" ? { expectedNonce: checks.nonce, idTokenExpected: true } : {}),
        });
      } catch (error) {
        throw rejected(label, error);
      }
      if (cfg.protocol === "oidc") {
        const claims = tokens.claims();
        if (!claims?.sub) throw new AppError("UNAUTHENTICATED", `${label} did not say who signed in.`);
        return {
          subject: String(claims.sub),
          name: typeof claims.name === "string" ? claims.name : null,
          email: typeof claims.email === "string" ? claims.email : null,
          emailVerified: claims.email_verified === true || claims.email_verified === "true",
        };
      }
      return fetchOAuth2Identity(config, cfg, tokens.access_token, label);
    },
  };
}

function rejected(label: string, error: unknown): AppError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof TypeError && /fetch failed/i.test(message)) {
    return new AppError("BAD_GATEWAY", `Could not reach ${label} to complete the sign-in. Try again.`);
  }
  return new AppError("BAD_REQUEST", `The ${label} sign-in could not be verified. Please start again.`, {
    reason: message.slice(0, 200),
  });
}

/** Facebook answers `{ id, name, email }`, X answers `{ data: { id, name, username } }`. */
async function fetchOAuth2Identity(
  config: oidc.Configuration,
  cfg: SocialProviderConfig,
  accessToken: string,
  label: string,
): Promise<ProviderIdentity> {
  let body: Record<string, unknown>;
  try {
    const response = await oidc.fetchProtectedResource(config, accessToken, new URL(cfg.userinfoUrl!), "GET");
    if (!response.ok) throw new Error(`user endpoint answered ${response.status}`);
    body = (await response.json()) as Record<string, unknown>;
  } catch (error) {
    throw new AppError("BAD_GATEWAY", `Could not read your ${label} profile. Try again.`, {
      reason: error instanceof Error ? error.message.slice(0, 200) : String(error),
    });
  }
  const data = (typeof body.data === "object" && body.data ? body.data : body) as Record<string, unknown>;
  const id = data.id ?? data.sub;
  if (typeof id !== "string" && typeof id !== "number") {
    throw new AppError("BAD_GATEWAY", `${label} did not say who signed in.`);
  }
  const name = data.name ?? data.username;
  return {
    subject: String(id),
    name: typeof name === "string" ? name : null,
    email: typeof data.email === "string" ? data.email : null,
    // Facebook only returns confirmed addresses; X returns none. Emails are never used to match accounts anyway.
    emailVerified: cfg.provider === "facebook" && typeof data.email === "string",
  };
}
