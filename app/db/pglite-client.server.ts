// Relative imports carry `.ts` (see open.server.ts).
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { LearnerChanges } from "./learner-changes.ts";
import type {
  PgliteLearnerChanged,
  PgliteReady,
  PgliteReply,
  PgliteRequest,
  WireError,
  WireQueryOptions,
} from "./pglite-wire.ts";

type QueryResult = { rows: unknown[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number };
type QueryOptions = { rowMode?: "array" | "object"; parsers?: Record<number, unknown> };
type Query = (sql: string, params?: unknown[], options?: QueryOptions) => Promise<QueryResult>;
type RequestWithoutId = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, "id"> : never) : never;

/** The worker's file: beside this one, or (this module bundled into build/server) in app/db of the working directory. */
function workerFile(): string {
  const here = path.join(import.meta.dirname ?? "", "pglite-worker.ts");
  return existsSync(here) ? here : path.resolve(process.cwd(), "app", "db", "pglite-worker.ts");
}

function toError(error: WireError): Error {
  const result = new Error(error.message);
  if (error.name) result.name = error.name;
  return Object.assign(result, error.fields);
}

const wireOptions = (options: QueryOptions | undefined): WireQueryOptions | undefined =>
  options && { rowMode: options.rowMode, rawTypes: Object.keys(options.parsers ?? {}).map(Number) };

/**
 * PGlite on a thread of its own, behind the part of PGlite's interface drizzle uses (`query`, `transaction`): the
 * queries run on another core while this thread reads sockets and renders pages, and an answer arrives as a message,
 * a turn of the event loop of its own (no chain of queries holds the loop). A transaction holds the database until it
 * ends, as PGlite does on one thread.
 */
export class PgliteWorkerClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private failed: Error | null = null;
  /** Resolves once the database is open and migrated (the name PGlite gives it: the import tells the two apart by it). */
  readonly waitReady: Promise<void>;
  /** The learners whose row changed, announced by the thread before its answer to the write that changed it. */
  readonly learnerChanges = new LearnerChanges();

  constructor(dataDir: string, migrationsFolder: string) {
    this.worker = new Worker(workerFile(), { workerData: { dataDir, migrationsFolder } });
    this.waitReady = new Promise<void>((resolve, reject) => {
      const onReady = (message: PgliteReady | PgliteReply | PgliteLearnerChanged) => {
        if ("learnerChanged" in message) return this.learnerChanges.announce(message.learnerChanged);
        if (!("ready" in message)) return this.settle(message);
        if (message.ready) resolve();
        else reject(toError(message.error));
      };
      this.worker.on("message", onReady);
      this.worker.once("error", (error) => {
        this.fail(error);
        reject(error);
      });
      this.worker.once("exit", (code) => {
        const error = new Error(`the embedded database's thread ended (${code})`);
        this.fail(error);
        reject(error);
      });
    });
  }

  private settle(message: PgliteReply) {
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(toError(message.error));
  }

  private fail(error: Error) {
    this.failed ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  private send<T>(request: RequestWithoutId): Promise<T> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  private queryIn(tx: number | null): Query {
    return (sql, params, options) =>
      this.send<QueryResult>({ op: "query", tx, sql, params, options: wireOptions(options) });
  }

  query: Query = (sql, params, options) => this.queryIn(null)(sql, params, options);

  async transaction<T>(run: (tx: { query: Query }) => Promise<T>): Promise<T> {
    const tx = await this.send<number>({ op: "begin" });
    let result: T;
    try {
      result = await run({ query: this.queryIn(tx) });
    } catch (error) {
      await this.send({ op: "end", tx, commit: false }).catch(() => {});
      throw error;
    }
    await this.send({ op: "end", tx, commit: true });
    return result;
  }

  async close(): Promise<void> {
    try {
      await this.send({ op: "close" });
    } finally {
      await this.worker.terminate();
    }
  }
}
