import { lingui } from "@lingui/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

const alias = {
  "@common": new URL("./common/src", import.meta.url).pathname,
  "@": new URL("./client/src", import.meta.url).pathname,
};

// Waiting for a condition costs a passing test nothing: `expect.poll` waits up to 15 s (not 1 s) for what a busy
// machine is slow to reach.
const expectOptions = { poll: { timeout: 15_000, interval: 50 } };

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react(), lingui({ failOnCompileError: true })],
        resolve: { alias },
        test: {
          name: "client",
          expect: expectOptions,
          // A component test's own time on a busy machine can pass the 5 s default; a passing test takes no longer.
          testTimeout: 30_000,
          environment: "happy-dom",
          include: ["client/src/**/*.test.{ts,tsx}"],
          setupFiles: ["client/src/test/setup.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "common",
          environment: "node",
          include: ["common/**/*.test.ts"],
          expect: expectOptions,
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "server",
          expect: expectOptions,
          environment: "node",
          include: ["server/**/*.test.ts"],
          // Marks this run's PostgreSQL test databases and drops any a test file left behind.
          globalSetup: ["server/test/global-setup.ts"],
          // Generous: each file starts its own database (and often an anvil chain); CI machines can be busy. With
          // the machine oversubscribed eight times over (load 15-20 on 2 cores), starting an embedded database and
          // its migrations took over 120 s where it takes ~5 s idle: a time limit only ends a test that hangs.
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
