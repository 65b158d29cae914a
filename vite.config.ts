import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./scripts/vite-precompress.ts";

const serverPort = Number(process.env.PORT ?? 5000);

export default defineConfig({
  root: "client",
  publicDir: "public",
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: {
      "@common": new URL("./common/src", import.meta.url).pathname,
      "@": new URL("./client/src", import.meta.url).pathname,
    },
  },
  // `vite build` builds the browser app, then the server-rendering entry of the content pages (decision 009).
  builder: {
    async buildApp(builder) {
      const { client, ssr } = builder.environments;
      if (client) await builder.build(client);
      if (ssr) await builder.build(ssr);
    },
  },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          // Rolldown gives every module that two routes share a chunk of its own: each lucide icon, each small
          // helper. The dashboard asked for 90 scripts, and a phone's browser fetches 6 at a time from one origin
          // over HTTP/1.1. Common chunks under 10 KB (source) are copied into the chunks that use them instead
          // (decision 023). Only the browser's build: the server-rendering entry keeps its exports.
          preserveEntrySignatures: false,
          output: { codeSplitting: { experimentalInlineCommonChunks: { maxSize: 10_000 } } },
        },
      },
    },
    ssr: {
      // Node resolves lucide-react to its CommonJS bundle: every one of its 1,600+ icons (1.3 MB of source), created
      // when the server loads the renderer. Bundled, the renderer carries only the icons the pages use.
      resolve: { noExternal: ["lucide-react"] },
      build: {
        outDir: "../dist/ssr",
        emptyOutDir: true,
        manifest: false,
        copyPublicDir: false,
        rollupOptions: { input: { "entry-server": "src/entry-server.tsx" } },
      },
    },
  },
  build: {
    outDir: "../dist/client",
    emptyOutDir: true,
    target: "es2022",
    assetsInlineLimit: 0,
    // bench/bundle.mjs reads it to tell the entry's JavaScript from each route's.
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: {
      "/api": `http://127.0.0.1:${serverPort}`,
      "/ws": { target: `ws://127.0.0.1:${serverPort}`, ws: true },
      "/rss.xml": `http://127.0.0.1:${serverPort}`,
      "/sitemap.xml": `http://127.0.0.1:${serverPort}`,
    },
  },
});
