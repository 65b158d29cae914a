// The pay button's script (`client/embed/embed.ts`, decision 035): one small classic script, minified on its own
// into dist/embed/embed.js (beside dist/client, so the static files' routes do not serve it: the server does, with
// its own cache rules). Old browsers' syntax (ES2017), as it runs on merchants' pages.
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

export async function buildEmbedScript(outfile = `${root}dist/embed/embed.js`) {
  await build({
    entryPoints: [`${root}client/embed/embed.ts`],
    outfile,
    // Its catalogs (client/src/locales/*/embed.json) and the language matching of common/locales.ts, nothing else.
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2017",
    legalComments: "none",
    logLevel: "warning",
  });
}
