// Runs pglite-worker.ts from its TypeScript source (tests, `npm run dev`): a worker thread does not inherit the
// loader its parent runs under. The build compiles pglite-worker.ts into dist/server/pglite-worker.mjs instead.
import { register } from "tsx/esm/api";

register();
await import("./pglite-worker.ts");
