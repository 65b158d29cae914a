// The embedded database on its own thread (decision 030): the part of PGlite's interface drizzle uses (query and
// transaction) and close, answered by pglite-worker.ts. Like PGlite itself, it runs one statement at a time
// and nothing between a transaction's statements.
import { join } from "node:path";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { PGlite, Results, Transaction } from "@electric-sql/pglite";
import {
  type ErrorDescription,
  reviveError,
  type WorkerData,
  type WorkerReply,
  type WorkerRequest,
} from "./pglite-worker-protocol.ts";

/** PGlite's own directory under the data directory (DATA_DIR). */
export const pgliteDir = (dataDir: string) => join(dataDir, "pglite");

/** The compiled worker beside the compiled server; from source (tests, development), through tsx. */
const workerEntry = import.meta.url.endsWith(".ts")
  ? new URL("./pglite-worker-tsx.mjs", import.meta.url)
  : new URL("./pglite-worker.mjs", import.meta.url);

/**
 * The thread's young generation: V8's default (up to 3 x 16 MB) stays committed once a start's garbage has grown it,
 * some 15 MB of idle memory for a thread whose objects are mostly short-lived query results (decision 030).
 */
const WORKER_YOUNG_GENERATION_MB = 4;

type QueryOptions = {
  rowMode?: "array" | "object";
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
};
type WithoutId<R> = R extends unknown ? Omit<R, "id"> : never;
type Request = WithoutId<WorkerRequest>;

/** The thread `prestart` started, until `start` takes it over. */
let early: { dataDir: string; client: PGliteWorkerClient } | null = null;

/** One statement or transaction at a time, in the order asked (PGlite's own transaction mutex). */
class Queue {
  #tail: Promise<unknown> = Promise.resolve();
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work);
    this.#tail = result.catch(() => {});
    return result;
  }
}

/**
 * Only parsers that keep PostgreSQL's text cross threads (a function cannot): drizzle's, for dates, timestamps and
 * intervals. Anything else is refused rather than silently parsed differently.
 */
function textTypes(parsers: QueryOptions["parsers"]): number[] {
  if (!parsers) return [];
  return Object.entries(parsers).map(([oid, parse]) => {
    if (parse("2000-01-01 00:00:00", Number(oid)) !== "2000-01-01 00:00:00") {
      throw new Error(
        `The embedded database keeps type ${oid} as text or parses it itself; custom parsers are not supported.`,
      );
    }
    return Number(oid);
  });
}

/** How long a blocked wait for an answer lasts before it looks again whether the thread is still there. */
const WAIT_SLICE_MS = 1000;

export class PGliteWorkerClient {
  readonly #worker: Worker;
  /** Requests go out and answers come back on this port. */
  readonly #port: MessagePort;
  /** [answers sent, thread ended]: the thread counts each answer here, so a blocked wait wakes (see `#requestNow`). */
  readonly #signal: Int32Array;
  /** Once PGlite is open and no migration runs, a statement is answered before the call returns (decision 030). */
  #answerNow = false;
  /** How many `hold` works (migrations) are running. */
  #holding = 0;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #queue = new Queue();
  #nextId = 1;
  /** Settles when the work of `hold` (the migrations) has ended. */
  #gate: Promise<void> = Promise.resolve();
  /** Set when the thread has stopped (closed, or failed): every later call is refused with it. */
  #stopped: Error | null = null;

  private constructor(worker: Worker, port: MessagePort, signal: Int32Array) {
    this.#worker = worker;
    this.#port = port;
    this.#signal = signal;
  }

  /**
   * Starts the database thread on `dataDir` (null: in memory) and returns at once: statements sent before PGlite
   * has opened wait in the thread's queue, and fail with PGlite's own error if it cannot open.
   */
  static start(dataDir: string | null): PGliteWorkerClient {
    const prestarted = early;
    early = null;
    if (prestarted && prestarted.dataDir === dataDir) return prestarted.client;
    if (prestarted) void prestarted.client.close();
    return PGliteWorkerClient.#spawn(dataDir);
  }

  /**
   * Starts the thread on `dataDir` ahead of the server's own start (main.ts), for `start` to take over: PGlite opens
   * while the rest of the server loads.
   */
  static prestart(dataDir: string): PGliteWorkerClient {
    const client = PGliteWorkerClient.#spawn(dataDir);
    early = { dataDir, client };
    return client;
  }

  static #spawn(dataDir: string | null): PGliteWorkerClient {
    const { port1, port2 } = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(workerEntry, {
      workerData: { dataDir, port: port2, signal: signal.buffer } satisfies WorkerData,
      transferList: [port2],
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    const client = new PGliteWorkerClient(worker, port1, signal);
    // The thread's first answer says PGlite has opened; if it could not, `#settle` stops the client with its reason.
    client.#pending.set(0, {
      resolve: () => {
        client.#answerNow = true;
      },
      reject: () => {},
    });
    port1.on("message", (reply: WorkerReply) => client.#settle(reply));
    // The thread keeps the process alive while it has work (`#request`), not the port.
    port1.unref();
    worker.on("error", (error) => client.#stop(error));
    worker.on("exit", (code) =>
      client.#stop(new Error(`The embedded database stopped (exit code ${code}).`)),
    );
    return client;
  }

  /**
   * Runs `work` (the migrations) with a client of its own while every statement sent through this one waits for it
   * to end: nothing else reads or writes the database while its schema changes.
   */
  hold<T>(work: (direct: PGlite) => Promise<T>): Promise<T> {
    const direct = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) =>
        this.#queue.run(() => this.#query<R>(sql, params ?? [], options ?? {})),
      transaction: <R>(callback: (tx: Transaction) => Promise<R>) => this.#transaction(callback),
    } as unknown as PGlite;
    // Meanwhile statements are answered in their turn, so the start goes on building the app (decision 030).
    this.#holding++;
    const done = work(direct).finally(() => this.#holding--);
    const previous = this.#gate;
    this.#gate = Promise.all([previous, done]).then(
      () => {},
      () => {},
    );
    return done;
  }

  async query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    await this.#gate;
    return this.#queue.run(() => this.#query<T>(sql, params, options));
  }

  /** BEGIN, the callback's statements, then COMMIT, or ROLLBACK when it throws (as PGlite's own transaction). */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    await this.#gate;
    return this.#transaction(callback);
  }

  #transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#queue.run(async () => {
      await this.#request({ op: "exec", sql: "BEGIN" });
      let closed = false;
      // drizzle's transactions only query (its rollback throws, which ends up below); a statement sent once the
      // transaction has ended would otherwise run outside it.
      const tx = {
        query: async <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
          if (closed) throw new Error("Transaction is closed");
          return this.#query<R>(sql, params ?? [], options ?? {});
        },
      } as unknown as Transaction;
      try {
        const result = await callback(tx);
        closed = true;
        await this.#request({ op: "exec", sql: "COMMIT" });
        return result;
      } catch (error) {
        if (!closed) {
          closed = true;
          await this.#request({ op: "exec", sql: "ROLLBACK" });
        }
        throw error;
      }
    });
  }

  /** Closes PGlite (its files flushed) and lets the thread end. */
  async close(): Promise<void> {
    if (this.#stopped) return;
    await this.#gate;
    const exited = new Promise((resolve) => this.#worker.once("exit", resolve));
    await this.#queue.run(() => this.#request({ op: "close" }));
    await exited;
  }

  #query<T>(sql: string, params: unknown[], options: QueryOptions): Promise<Results<T>> {
    const request: Request = {
      op: "query",
      sql,
      params,
      rowMode: options.rowMode ?? "object",
      textTypes: textTypes(options.parsers),
    };
    return this.#request(request) as Promise<Results<T>>;
  }

  #request(request: Request): Promise<unknown> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    if (this.#answerNow && this.#holding === 0) {
      try {
        const reply = this.#requestNow(request);
        return "error" in reply ? Promise.reject(reviveError(reply.error)) : Promise.resolve(reply.result);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      // The thread keeps the process alive only while it has work: an idle database does not hold a script open.
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.#port.postMessage({ ...request, id });
    });
  }

  /**
   * Sends the request and blocks this thread until its answer is back, as PGlite did running here: a statement
   * takes its time from this thread either way, and an answer that had to wait for the event loop's turn (behind
   * every request being served) would hold a transaction open, and every other statement behind it, for that long.
   */
  #requestNow(request: Request): WorkerReply {
    const id = this.#nextId++;
    this.#port.postMessage({ ...request, id });
    for (;;) {
      const answered = Atomics.load(this.#signal, 0);
      for (
        let received = receiveMessageOnPort(this.#port);
        received;
        received = receiveMessageOnPort(this.#port)
      ) {
        const reply = received.message as WorkerReply;
        if (reply.id === id) return reply;
        this.#settle(reply);
      }
      if (Atomics.load(this.#signal, 1) !== 0) {
        this.#stop(new Error("The embedded database stopped."));
        throw this.#stopped;
      }
      Atomics.wait(this.#signal, 0, answered, WAIT_SLICE_MS);
    }
  }

  #settle(reply: WorkerReply) {
    const waiting = this.#pending.get(reply.id);
    if (!waiting) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if ("error" in reply) {
      const error = reviveError(reply.error as ErrorDescription);
      waiting.reject(error);
      // PGlite could not open: every statement, sent or to come, fails with its reason.
      if (reply.id === 0) this.#stop(error);
    } else waiting.resolve(reply.result);
  }

  #stop(error: Error) {
    this.#stopped ??= error;
    for (const waiting of this.#pending.values()) waiting.reject(error);
    this.#pending.clear();
  }
}
