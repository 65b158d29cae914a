import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 5178);
// Set once in the runner so every worker (which loads this file again) sees the same server data directory.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "cpxtb-e2e-"));
const dataDir = process.env.E2E_DATA_DIR;
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  // One folder per port: several runs at once (different ports) must not delete each other's artifacts.
  outputDir: `test-results/e2e-${port}`,
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  forbidOnly: Boolean(process.env.CI),
  // One retry in CI: a test that passes only on retry is still listed as "flaky" in the report, to be fixed.
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  timeout: 60_000,
  // What a person sees can take longer than Playwright's default 5 s on a busy CI machine (a page's lazy chunk,
  // a list's first fetch): assertions wait up to 15 s for it, which costs a passing test nothing.
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "node scripts/start.mjs",
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      E2E: "1",
      // The origin the browser uses (decision 010; required in production when E2E_DATABASE_URL is set).
      PUBLIC_URL: baseURL,
      // Every test's pages share one address: the per-address /ws cap is sized for the suite.
      WS_MAX_CONNECTIONS_PER_ADDRESS: "1000",
      // The whole suite runs from one address, in parallel: the rate limits stay on, sized for that traffic.
      // The challenge itself runs against a server of its own with a low limit (e2e/challenge.spec.ts).
      RATE_LIMIT_GENERAL: "5000/60s",
      RATE_LIMIT_ACCOUNT: "5000/60s",
      RATE_LIMIT_AUTH: "1000/60s",
      RATE_LIMIT_CONTACT: "500/60s",
      RATE_LIMIT_CLAIM: "500/60s",
      RATE_LIMIT_PUBLIC: "5000/60s",
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
      // In-process shared state: several e2e servers run at once and must not share rate windows or user counts.
      REDIS_URL: "",
      // The embedded chain can be slow to answer on a busy CI machine: don't give up at 4 s.
      RPC_TIMEOUT_MS: "20000",
      // Webhook endpoints in e2e/webhooks.spec.ts are receivers the test starts on loopback.
      WEBHOOKS_ALLOW_PRIVATE: "true",
    },
  },
});
