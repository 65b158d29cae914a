// What the server and the embedded database's thread (pglite-worker.ts) say to each other.
import type { MessagePort } from "node:worker_threads";

export type WorkerData = {
  /** PGlite's data directory; null for an in-memory database (tests). */
  dataDir: string | null;
  /** Where requests arrive and answers go. */
  port: MessagePort;
  /** An Int32Array's memory: [answers sent, thread ended], counted by the thread so a blocked server wakes. */
  signal: SharedArrayBuffer;
};

export type WorkerRequest =
  | {
      id: number;
      op: "query";
      sql: string;
      params: unknown[];
      rowMode: "array" | "object";
      /** Type OIDs whose values stay PostgreSQL's text (drizzle's parsers for dates and timestamps). */
      textTypes: number[];
    }
  | { id: number; op: "exec"; sql: string }
  | { id: number; op: "close" };

/** An answer to the request of the same id; id 0 says the database has opened (or failed to). */
export type WorkerReply = { id: number; result: unknown } | { id: number; error: ErrorDescription };

/**
 * An error as it crosses threads. A structured clone keeps an error's message and name but not its own fields,
 * and the server reads PostgreSQL's (`code` "23505" and `constraint` for a unique violation, among others).
 */
export type ErrorDescription = {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, string | number | boolean>;
};

export function describeError(error: unknown): ErrorDescription {
  if (!(error instanceof Error)) {
    // PGlite's file system errors are plain objects (Emscripten's `{ name: "ErrnoError", errno }`).
    return { name: "Error", message: JSON.stringify(error) ?? String(error), fields: {} };
  }
  const fields: ErrorDescription["fields"] = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

/** The error again, with PostgreSQL's fields, on this side (its stack is the database thread's). */
export function reviveError(description: ErrorDescription): Error {
  const error = Object.assign(new Error(description.message), description.fields);
  error.name = description.name;
  if (description.stack) error.stack = description.stack;
  return error;
}
