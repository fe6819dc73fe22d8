// Statements the app sends again and again keep their parse and plan on each PostgreSQL connection, as they do on the
// embedded database (pglite-statements.ts, decision 069): from its second time, a parameterised statement's text goes
// out under a name, which node-postgres parses once per connection and then only binds and executes (PostgreSQL plans
// it for the parameters at hand the first times, then keeps one plan once that proves no dearer). Measured on the
// review loop's statements, parse and planning were a third of their server time (the learner's day: parse 0.21 ms,
// bind with its plan 0.53 ms, execute 1.2 ms). Decision 079. Plain `node` runs this file with the scripts.
import type pg from "pg";

/** At most this many texts get a name: each connection then holds at most this many prepared statements. */
const NAMED_STATEMENTS = 256;
/** Texts seen once, remembered until this many (then forgotten together): only a text seen twice is named. */
const SEEN_ONCE = 2048;

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown[]; submit?: unknown };

/**
 * The name a statement's text goes out under, or undefined: a text is named from its second time, while fewer than
 * NAMED_STATEMENTS texts have a name (the rest go out as new statements, as before). Statements that differ at every
 * call (lists of values of varying length) take no name.
 */
export function statementNames(limit = NAMED_STATEMENTS) {
  const names = new Map<string, string>();
  let seenOnce = new Set<string>();
  return (text: string): string | undefined => {
    const found = names.get(text);
    if (found !== undefined || names.size >= limit) return found;
    if (!seenOnce.has(text)) {
      if (seenOnce.size >= SEEN_ONCE) seenOnce = new Set();
      seenOnce.add(text);
      return undefined;
    }
    seenOnce.delete(text);
    const name = `polyglot_${names.size}`;
    names.set(text, name);
    return name;
  };
}

/** PostgreSQL's answer to a kept statement whose rows changed shape (a column added to a `select *`'s table). */
const RESULT_TYPE_CHANGED = "0A000";

/**
 * node-postgres's client, naming what `statementNames` names. Only a statement with parameters: one without goes out
 * as a simple query, which may hold several statements (migrations), and a name would send it as one. A query object
 * of its own (a cursor, a stream) and one already named pass as they are. A statement that PostgreSQL no longer runs
 * under its name because its rows changed shape (another instance's migration) fails once, then goes out on this
 * connection under a new name, prepared again.
 */
export function namingClient(Client: typeof pg.Client, nameOf = statementNames()): typeof pg.Client {
  class NamingClient extends Client {
    /** Texts prepared again on this connection under another name, and how many times that happened. */
    #renamed = new Map<string, string>();
    #renames = 0;

    #noteFailure(text: string, name: string, error: unknown) {
      if ((error as { code?: unknown } | null)?.code === RESULT_TYPE_CHANGED)
        this.#renamed.set(text, `${name}_${++this.#renames}`);
    }

    // @ts-expect-error: one override for node-postgres's many overloads of `query`, passing its arguments on as given.
    override query(config: unknown, values?: unknown, callback?: unknown) {
      const query = (config !== null && typeof config === "object" ? config : {}) as QueryConfig;
      const parameters = Array.isArray(values) ? values : query.values;
      const text = query.text;
      const name =
        typeof text === "string" &&
        query.name === undefined &&
        query.submit === undefined &&
        parameters !== undefined &&
        parameters.length > 0
          ? (this.#renamed.get(text) ?? nameOf(text))
          : undefined;
      const run = super.query as (...args: unknown[]) => unknown;
      if (name === undefined) return run.call(this, config, values, callback);
      const named = { ...query, name };
      const noted = (error: unknown) => this.#noteFailure(text as string, name, error);
      if (typeof values === "function" || typeof callback === "function") {
        const [given, done] =
          typeof values === "function"
            ? [undefined, values as (error: unknown, result?: unknown) => void]
            : [values, callback as (error: unknown, result?: unknown) => void];
        return run.call(this, named, given, (error: unknown, result: unknown) => {
          if (error) noted(error);
          done(error, result);
        });
      }
      const answer = run.call(this, named, values) as Promise<unknown>;
      answer.catch(noted);
      return answer;
    }
  }
  return NamingClient as typeof pg.Client;
}
