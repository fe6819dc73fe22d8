import { createHash, timingSafeEqual } from "node:crypto";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The metrics `/metrics` shows (Prometheus text format, for a scraper holding METRICS_TOKEN): the process's own
 * (`process_*` and `nodejs_*`: memory, CPU, event-loop lag, garbage collection), requests by route pattern and status,
 * requests in flight, requests shed under load, and the database's query times and connection pool. One registry per
 * process; any module of the app may count into the metrics below.
 */
export const metrics = new Registry();
collectDefaultMetrics({ register: metrics });

/** Answered requests, by method, route pattern (never the raw path) and status; server.ts observes each. */
export const requestDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time from the request's arrival to the end of its answer, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metrics],
});

/** Requests arrived and not yet answered (or abandoned). */
export const requestsInFlight = new Gauge({
  name: "http_requests_in_flight",
  help: "Requests being answered right now.",
  registers: [metrics],
});

/** Requests refused with 503 before any work because the instance was too busy: load shedding counts them here. */
export const shedRequests = new Counter({
  name: "shed_requests_total",
  help: "Requests answered 503 at once because the instance was overloaded (load shedding).",
  registers: [metrics],
});

/** Statements sent outside a transaction (what most pages issue), by database kind and outcome. */
export const queryDuration = new Histogram({
  name: "db_query_duration_seconds",
  help: "Time of one database statement outside a transaction, by database kind and outcome.",
  labelNames: ["database", "outcome"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [metrics],
});

type Queryable = { query: (...args: never[]) => unknown };

/**
 * Times every `query` call of a client (a pg Pool or PGlite) that returns a promise: the statements drizzle sends
 * outside transactions. Statements inside a transaction go through a checked-out connection and are not timed.
 */
export function timeQueries(client: Queryable, database: "postgresql" | "pglite") {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const end = queryDuration.startTimer({ database });
    const result = query(...args);
    if (result instanceof Promise) {
      result.then(
        () => end({ outcome: "ok" }),
        () => end({ outcome: "error" }),
      );
    }
    return result;
  }) as Queryable["query"];
}

type PoolCounts = { totalCount: number; idleCount: number; waitingCount: number };
let pool: PoolCounts | null = null;

/** The PostgreSQL pool's connections (open, idle) and the requests waiting for one, read at each scrape. */
export const poolConnections = new Gauge({
  name: "db_pool_connections",
  help: "PostgreSQL pool: open and idle connections and requests waiting for one (absent on the embedded database).",
  labelNames: ["state"] as const,
  registers: [metrics],
  collect() {
    this.reset();
    if (!pool) return;
    this.set({ state: "open" }, pool.totalCount);
    this.set({ state: "idle" }, pool.idleCount);
    this.set({ state: "waiting" }, pool.waitingCount);
  },
});

/** Reports this pool's connections in `db_pool_connections`. */
export function watchPool(next: PoolCounts) {
  pool = next;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Whether an Authorization header carries `Bearer <token>`: compared as SHA-256 digests in constant time, so neither
 * the token's characters nor its length can be learned from how long a refusal takes.
 */
export function holdsBearerToken(authorization: string | undefined, token: string): boolean {
  const offered = /^Bearer[ \t]+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(offered), digest(token)) && offered.length > 0;
}
