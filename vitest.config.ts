import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

const alias = {
  "@common": new URL("./common/src", import.meta.url).pathname,
  "@": new URL("./client/src", import.meta.url).pathname,
};

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: "client",
          environment: "happy-dom",
          include: ["client/src/**/*.test.{ts,tsx}"],
          setupFiles: ["client/src/test/setup.ts"],
        },
      },
      {
        resolve: { alias },
        test: { name: "common", environment: "node", include: ["common/**/*.test.ts"] },
      },
      {
        resolve: { alias },
        test: {
          name: "server",
          environment: "node",
          include: ["server/**/*.test.ts"],
          // Generous: each file starts its own database (and often an anvil chain); CI machines can be busy.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
