import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";
import { redactUrl } from "../src/lib/logger.ts";

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
