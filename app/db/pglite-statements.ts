// Statements the app sends again and again keep their parse and plan on the embedded database's thread: from its
// second time, a statement's text is prepared once under a name, and each later run only binds its parameters and
// executes (PostgreSQL plans it for the parameters at hand the first times, then keeps one plan once that proves no
// dearer). PGlite's own `query` parses and plans every statement anew: for the short queries of a page that was most
// of their time (a learner's next card, 0.41-0.68 ms as a new statement, 0.15-0.17 ms prepared). The results are the
// same: the same protocol messages, parsed by PGlite's own parsers. Plain `node` runs this file with the worker.
import { parse, protocol, type PGlite } from "@electric-sql/pglite";

type QueryOptions = Parameters<PGlite["query"]>[2];
type Results = ReturnType<typeof parse.parseResults>[number];

/** At most this many statements kept prepared; the least recently used is closed for a new one. */
export const KEPT_STATEMENTS = 256;
/** Texts seen once, remembered until this many (then forgotten together): only a text seen twice is prepared. */
const SEEN_ONCE = 2048;

/** Protocol messages one after the other, in one buffer. */
function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

export function preparedStatements(db: PGlite) {
  /** Kept statements by text, least recently used first: their name and the types of their parameters. */
  const kept = new Map<string, { name: string; types: number[] }>();
  const seenOnce = new Set<string>();
  let nextName = 0;
  const run = (message: Uint8Array) => db.execProtocolStream(message, { syncToFs: false });

  /**
   * PGlite's parsers with the call's own over them, merged once per options object (PGlite merges them at every call):
   * the worker hands the same object for the same kind of call.
   */
  const merged = new WeakMap<object, typeof db.parsers>();
  function parsersFor(options: QueryOptions) {
    if (!options?.parsers) return db.parsers;
    let parsers = merged.get(options.parsers);
    if (!parsers) merged.set(options.parsers, (parsers = { ...db.parsers, ...options.parsers }));
    return parsers;
  }

  /** Whether the text is worth keeping prepared: kept already, or seen once before. */
  function wanted(text: string): boolean {
    if (kept.has(text)) return true;
    if (seenOnce.has(text)) return true;
    if (seenOnce.size >= SEEN_ONCE) seenOnce.clear();
    seenOnce.add(text);
    return false;
  }

  /** The statement prepared under its name (closing the least recently used one when full). */
  async function statementFor(text: string, options: QueryOptions) {
    const found = kept.get(text);
    if (found) {
      kept.delete(text);
      kept.set(text, found);
      return found;
    }
    if (kept.size >= KEPT_STATEMENTS) {
      const [oldText, oldest] = kept.entries().next().value!;
      kept.delete(oldText);
      await run(protocol.serialize.close({ type: "S", name: oldest.name }));
    }
    const name = `s${nextName++}`;
    await run(protocol.serialize.parse({ name, text, types: options?.paramTypes }));
    const types = parse.parseDescribeStatementResults(await run(protocol.serialize.describe({ type: "S", name })));
    const statement = { name, types };
    kept.set(text, statement);
    seenOnce.delete(text);
    return statement;
  }

  /**
   * One statement, prepared, run while the caller holds the database: bind, describe, execute and sync go in one
   * buffer, as a client pipelines them on a socket, and the database works through them in one call (four calls
   * cost the thread a turn of PGlite's loop, its copies of the buffers and the files' checks each).
   */
  async function runPrepared(text: string, params: unknown[], options: QueryOptions): Promise<Results> {
    let statement: { name: string; types: number[] };
    try {
      statement = await statementFor(text, options);
    } catch (error) {
      await run(protocol.serialize.sync());
      throw error;
    }
    const { name, types } = statement;
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serialize = options?.serializers?.[types[i]!] ?? db.serializers[types[i]!];
      return serialize ? serialize(value) : String(value);
    });
    const messages = await run(
      concat([
        protocol.serialize.bind({ statement: name, values }),
        protocol.serialize.describe({ type: "P" }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
    );
    return parse.parseResults(messages, parsersFor(options), { rowMode: options?.rowMode })[0]!;
  }

  return {
    /**
     * `query` of PGlite (or of its transaction `tx`), with the statement kept prepared when its text comes again.
     * Outside a transaction it waits for any open one to end, as PGlite's `query` does.
     */
    query(tx: { query: PGlite["query"] } | null, text: string, params: unknown[] = [], options?: QueryOptions) {
      if (!wanted(text)) return (tx ?? db).query(text, params, options);
      if (tx) return db._runExclusiveQuery(() => runPrepared(text, params, options));
      return db._runExclusiveTransaction(() =>
        db._runExclusiveQuery(async () => {
          const result = await runPrepared(text, params, options);
          await db.syncToFs();
          return result;
        }),
      );
    },
    /** How many statements are kept prepared (for tests). */
    get size() {
      return kept.size;
    },
  };
}
