import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";
import { developmentSignInWarning } from "../src/config-social.ts";
import { redactUrl } from "../src/lib/logger.ts";
import { listProviders } from "../src/modules/social-auth/service.ts";

describe("configuration", () => {
  it("uses the embedded defaults when nothing is set", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: 5000,
      databaseUrl: undefined,
      env: "development",
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it("treats blank variables as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", PORT: " " })).toMatchObject({ databaseUrl: undefined, port: 5000 });
  });

  it("lists every bad variable at once", () => {
    let error: unknown;
    try {
      loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", LOG_LEVEL: "loud", PUBLIC_URL: "not a url" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join("\n");
    for (const name of ["PORT", "DATABASE_URL", "LOG_LEVEL", "PUBLIC_URL"]) expect(problems).toContain(name);
  });

  it("stops the server at start with exit code 1 and names the bad variable", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "server/src/main.ts"], {
      env: { ...process.env, PORT: "99999", DATABASE_URL: "", LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Invalid configuration");
    expect(result.stderr).toContain("PORT");
  });
});

describe("development sign-in page (anyone becomes any identity by typing an email)", () => {
  const devPage = (env: NodeJS.ProcessEnv) =>
    loadConfig({ LOG_LEVEL: "silent", ...env }).social.developmentPage;

  it("is off on a site others can reach, whatever NODE_ENV and RPC_URL say", () => {
    const production = loadConfig({ NODE_ENV: "production", PUBLIC_URL: "https://pay.example.com" });
    expect(production.social.developmentPage).toBe(false);
    expect(listProviders(production.social).map((p) => p.mode)).toEqual([
      "unavailable",
      "unavailable",
      "unavailable",
      "unavailable",
    ]);
    expect(developmentSignInWarning(production.social, production)).toBeNull();
    for (const env of [
      { NODE_ENV: "development", PUBLIC_URL: "https://pay.example.com" },
      { NODE_ENV: "development", PUBLIC_URL: "http://192.168.1.10:5000" },
      { NODE_ENV: "test", PUBLIC_URL: "http://pay.example.test" },
      // A loopback name over https is a certificate someone set up for others.
      { NODE_ENV: "development", PUBLIC_URL: "https://localhost:5000" },
      // The listen address is named localhost, but 0.0.0.0 is reached from other machines.
      { NODE_ENV: "development", HOST: "0.0.0.0" },
      { NODE_ENV: "development", HOST: "192.168.1.10" },
      { NODE_ENV: "development", HOST: "0.0.0.0", PUBLIC_URL: "http://localhost:5000" },
    ])
      expect(devPage(env), JSON.stringify(env)).toBe(false);
  });

  it("is on by default only for a loopback http origin served on loopback (npm start on a fresh machine)", () => {
    expect(devPage({})).toBe(true);
    expect(devPage({ NODE_ENV: "production" })).toBe(true);
    expect(devPage({ NODE_ENV: "production", PUBLIC_URL: "http://127.0.0.1:5000" })).toBe(true);
    expect(devPage({ NODE_ENV: "development", HOST: "::1", PUBLIC_URL: "http://[::1]:5000" })).toBe(true);
  });

  it("SOCIAL_DEV_LOGIN overrides either way", () => {
    expect(devPage({ SOCIAL_DEV_LOGIN: "false" })).toBe(false);
    expect(devPage({ PUBLIC_URL: "https://staging.example.com", SOCIAL_DEV_LOGIN: "true" })).toBe(true);
  });

  it("the start warns while it is on, and louder on a site others can reach", () => {
    const local = loadConfig({ LOG_LEVEL: "silent" });
    expect(developmentSignInWarning(local.social, local)).toMatch(
      /^Development sign-in page ON for google, facebook, twitter, apple .*reachable from this machine only/,
    );
    const exposed = loadConfig({ PUBLIC_URL: "https://staging.example.com", SOCIAL_DEV_LOGIN: "true" });
    expect(developmentSignInWarning(exposed.social, exposed)).toMatch(
      /\(https:\/\/staging\.example\.com\) is reachable from other machines: anyone there can sign in as anyone/,
    );
    const google = loadConfig({ GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret" });
    expect(developmentSignInWarning(google.social, google)).toMatch(/ON for facebook, twitter, apple /);
  });
});

describe("log redaction", () => {
  it("removes one-time tokens from logged URLs", () => {
    expect(redactUrl("/reset-password?token=abc123&x=1")).toBe("/reset-password?token=[redacted]&x=1");
    expect(redactUrl("/api/invitations/AbC_-123/accept")).toBe("/api/invitations/[redacted]/accept");
    expect(redactUrl("/invitations/AbC_-123?x=1")).toBe("/invitations/[redacted]?x=1");
    expect(redactUrl("/api/refund-links/t0k3n/address")).toBe("/api/refund-links/[redacted]/address");
    expect(redactUrl("/api/merchant/payments/pay_1/refund-links")).toBe(
      "/api/merchant/payments/pay_1/refund-links",
    );
    expect(redactUrl("/api/auth/callback?code=xyz&state=s1")).toBe(
      "/api/auth/callback?code=[redacted]&state=[redacted]",
    );
    expect(redactUrl("/merchant?tab=payments")).toBe("/merchant?tab=payments");
  });
});
