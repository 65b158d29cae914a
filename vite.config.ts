import { lingui } from "@lingui/vite-plugin";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { buildEmbedScript } from "./scripts/build-embed.ts";
import { precompress } from "./scripts/vite-precompress.ts";

const serverPort = Number(process.env.PORT ?? 5000);

/**
 * `<link rel="modulepreload">` in index.html for the chunks the entry imports dynamically at start (main.tsx's
 * boot steps: React DOM, then the app's shell; decision 036): fetched beside the entry, evaluated later, each in a
 * task of its own. Vite links only an entry's static imports. On a server-rendered page these links wait with the
 * entry in the after-paint template like Vite's own (decision 023).
 */
function bootPreload(): Plugin {
  return {
    name: "cpxtb-boot-preload",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, { bundle, chunk }) {
        if (!bundle || !chunk) return;
        const staticClosure = (files: string[], seen = new Set<string>()): Set<string> => {
          for (const file of files) {
            const next = bundle[file];
            if (seen.has(file) || next?.type !== "chunk") continue;
            seen.add(file);
            staticClosure(next.imports, seen);
          }
          return seen;
        };
        const loaded = staticClosure([chunk.fileName]);
        const started = [...loaded].flatMap((file) => {
          const next = bundle[file];
          return next?.type === "chunk" ? next.dynamicImports : [];
        });
        const boot = [...staticClosure(started)].filter((file) => !loaded.has(file));
        return boot.map((file) => ({
          tag: "link",
          attrs: { rel: "modulepreload", crossorigin: true, href: `/${file}` },
          injectTo: "head" as const,
        }));
      },
    },
  };
}

export default defineConfig({
  root: "client",
  publicDir: "public",
  // lingui: message catalogs imported with `?lingui` are compiled at build time (decision 038); a message that
  // does not compile fails the build.
  plugins: [react(), lingui({ failOnCompileError: true }), tailwindcss(), precompress(), bootPreload()],
  resolve: {
    alias: {
      // wouter reads useSyncExternalStore through the shim package for React < 18; on React 19 the shim hands back
      // React's own hook, after some 1 KB of CommonJS glue in the shell every page loads (issue 39).
      "use-sync-external-store/shim/index.js": new URL(
        "./client/src/lib/react-sync-external-store.ts",
        import.meta.url,
      ).pathname,
      "@common": new URL("./common/src", import.meta.url).pathname,
      "@": new URL("./client/src", import.meta.url).pathname,
    },
  },
  // `vite build` builds the browser app, then the server-rendering entry of the content pages (decision 009), then
  // the pay button's script for other websites (decision 035).
  builder: {
    async buildApp(builder) {
      const { client, ssr } = builder.environments;
      if (client) await builder.build(client);
      if (ssr) await builder.build(ssr);
      await buildEmbedScript();
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
          output: {
            codeSplitting: {
              experimentalInlineCommonChunks: { maxSize: 10_000 },
              // React and the router, which every page and the shell use, in one chunk the entry loads: left to
              // itself Rolldown sometimes gave wouter a chunk of its own (0.3 KB gzip more for `/` in module
              // glue, with a change elsewhere in the graph; decision 036).
              groups: [{ name: "react", test: /\/node_modules\/(react|wouter)\// }],
            },
          },
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
    // @pdf-lib/fontkit is one chunk of 712 KB (328 KB gzip), loaded only to make a PDF in Turkish, Chinese or
    // Arabic (decision 038); every other chunk stays far below this.
    chunkSizeWarningLimit: 720,
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
