// Connections through a pooler in transaction mode (PgBouncer, a managed host's pooler): each transaction may run on
// another server connection, so nothing may rest on the session. Decision 102. Plain `node` runs this file with the
// scripts.
import type pg from "pg";

/** Settings a transaction through the pooler takes for itself, as PostgreSQL's parameter names and values. */
export type TransactionSettings = Record<string, number>;

const BEGIN = /^\s*begin\b/i;
const NAME = /^[a-z_][a-z0-9_.]*$/;

/**
 * The statement that opens a transaction, followed by `set local` of each setting, all in one simple query: the
 * settings hold until that transaction ends, on whichever server connection the pooler gave it, and cost no round
 * trip of their own.
 */
export function beginWith(begin: string, settings: TransactionSettings): string {
  const sets = Object.entries(settings).map(([name, value]) => {
    if (!NAME.test(name) || !Number.isSafeInteger(value)) throw new Error(`not a setting: ${name} = ${value}`);
    return `set local ${name} = ${value}`;
  });
  return [begin, ...sets].join("; ");
}

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown[] };

/**
 * node-postgres's client for a pooler in transaction mode. It sends no startup parameter a pooler's defaults refuse
 * (the pool is given none: PgBouncer answers `unsupported startup parameter` to `statement_timeout`), its statements go
 * unnamed, those its callers name too (drizzle's `.prepare(name)`: a named statement would be prepared on one server
 * connection and run on another, or collide with one of that name left there by another client), and each transaction
 * it begins sets `settings` for itself (`set local`). A statement outside a transaction is bounded by the client's own deadline,
 * and by the role's settings where an operator gives them (docs/operations.md).
 */
export function transactionPoolerClient(Client: typeof pg.Client, settings: TransactionSettings): typeof pg.Client {
  const beginning = (text: unknown) =>
    typeof text === "string" && BEGIN.test(text) ? beginWith(text, settings) : text;
  class TransactionPoolerClient extends Client {
    // @ts-expect-error: one override for node-postgres's many overloads of `query`, passing its arguments on as given.
    override query(config: unknown, values?: unknown, callback?: unknown) {
      const run = super.query as (...args: unknown[]) => unknown;
      if (config === null || typeof config !== "object") return run.call(this, beginning(config), values, callback);
      const query = config as QueryConfig;
      // A query object of its own (a cursor, a stream) passes as it is.
      if ("submit" in query) return run.call(this, config, values, callback);
      const parameters = Array.isArray(values) ? values : query.values;
      const text = parameters !== undefined && parameters.length > 0 ? query.text : beginning(query.text);
      return run.call(this, { ...query, text, name: undefined }, values, callback);
    }
  }
  return TransactionPoolerClient as typeof pg.Client;
}
