import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database } from "./db.server";

const dialect = new PgDialect();

/**
 * A raw statement whose text and parameters drizzle builds once, its varying values named by `sql.placeholder`, then
 * run with those values as `db.execute` runs a statement (in a transaction when `db` is one). Building a statement
 * walks every piece of it and checks each one's kind: for the learner's day, read on every page of the review loop,
 * that was a larger part of the read than sending it. A placeholder takes its value as the driver receives it (a time
 * as its ISO text): no column's encoding is applied.
 */
export function builtOnce(statement: SQL) {
  const query = dialect.sqlToQuery(statement);
  return <Row>(db: Database, values: Record<string, string | number | null>) =>
    db._.session.prepareQuery(query, undefined, undefined, false).execute(values) as Promise<{ rows: Row[] }>;
}

/**
 * A query drizzle prepares once per database (`prepare` builds it with `sql.placeholder`s and names it; PostgreSQL
 * then keeps its plan on each connection): the builder walks the query's pieces once, not at every call.
 */
export function preparedPerDatabase<Prepared>(prepare: (db: Database) => Prepared): (db: Database) => Prepared {
  const prepared = new WeakMap<Database, Prepared>();
  return (db) => {
    let found = prepared.get(db);
    if (!found) prepared.set(db, (found = prepare(db)));
    return found;
  };
}
