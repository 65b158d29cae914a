// The embedded database's own thread (decision 030): PGlite (PostgreSQL compiled to WebAssembly) runs here, so its
// start (most of a second of WebAssembly) overlaps the server's. The server talks to it through
// `PGliteWorkerClient` (pglite-worker-client.ts), which waits for each answer once PGlite is open.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { WorkerData, WorkerReply, WorkerRequest } from "./pglite-worker-protocol.ts";
import { describeError } from "./pglite-worker-protocol.ts";

/**
 * PGlite's PostgreSQL settings: its defaults plus a buffer pool sized for this application's data. PostgreSQL's
 * default shared_buffers (128 MB) lives inside PGlite's WebAssembly memory and is touched at start, most of the
 * idle server's memory; the data files are read through the operating system's page cache anyway, so a smaller
 * pool costs little (the 100,000-payment reports bench runs with it, see decision 020). The WebAssembly memory
 * itself cannot start below the module's 128 MB minimum (initialMemory), but it is only resident where touched.
 */
const PGLITE_SHARED_BUFFERS = "16MB";
const START_PARAMS = [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`];

/**
 * One full collection a second after PGlite has opened. PGlite reads its WebAssembly and its data bundle into
 * buffers outside the heap (some 9 MB still held after its start, measured), which only a collection returns, and a
 * thread that allocates as little as this one would not run one for a long while.
 */
function collectStartGarbage() {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** A column parser that keeps PostgreSQL's text (drizzle asks so for dates, timestamps and intervals). */
const asText = (value: string) => value;

const { dataDir, port, signal: signalMemory } = workerData as WorkerData;
const signal = new Int32Array(signalMemory);
/** Answers, and counts the answer for a server thread blocked waiting for it (pglite-worker-client.ts). */
const reply = (message: WorkerReply) => {
  port.postMessage(message);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
};
// However the thread ends, a server thread blocked waiting for an answer must learn it.
process.on("exit", () => {
  Atomics.store(signal, 1, 1);
  Atomics.notify(signal, 0);
});

let pg: PGlite;
try {
  // Contrib extensions the migrations create (the history search's trigram index).
  pg = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    extensions: { pg_trgm, btree_gin },
    startParams: START_PARAMS,
  });
  reply({ id: 0, result: null });
  setTimeout(collectStartGarbage, 1000).unref();
} catch (error) {
  const reason = describeError(error).message;
  const where = dataDir ?? "memory";
  reply({
    id: 0,
    error: describeError(new Error(`The embedded database could not open in ${where}: ${reason}`)),
  });
  process.exit(1);
}

port.on("message", async (request: WorkerRequest) => {
  try {
    switch (request.op) {
      case "query": {
        const parsers = Object.fromEntries(request.textTypes.map((oid) => [oid, asText]));
        const result = await pg.query(request.sql, request.params, { rowMode: request.rowMode, parsers });
        reply({ id: request.id, result });
        break;
      }
      case "exec":
        reply({ id: request.id, result: await pg.exec(request.sql) });
        break;
      case "close":
        await pg.close();
        reply({ id: request.id, result: null });
        port.close();
        break;
    }
  } catch (error) {
    reply({ id: request.id, error: describeError(error) });
  }
});
