/**
 * How `dict-install.ts` writes into the embedded database (PGlite) quickly (docs/decisions/132-…):
 * - rows go in with COPY from a blob of PostgreSQL's text format, which writes many rows per page at once, instead of
 *   INSERT … SELECT from a JSON parameter;
 * - when most of the set is loaded (the first install), the dictionary tables' indexes are dropped first and built
 *   once after the load, each in one sort, instead of being updated row by row.
 * PGlite has one user at a time (the server is stopped while it runs), so no reader ever sees the tables without
 * their indexes; any run on PGlite builds missing ones again, also after a run cut short.
 */
import type { DictionarySource } from "../../app/dictionary/entries.server.ts";
import { dictionaryKey } from "../../app/dictionary/entries.server.ts";
import type { ParsedEntry } from "../../app/dictionary/formats.ts";

type Results = { rows: unknown[]; affectedRows?: number };
export type PgliteTransaction = {
  query: (query: string, params?: unknown[], options?: { blob?: Blob }) => Promise<Results>;
};
export type PgliteClient = PgliteTransaction & {
  transaction: <T>(fn: (tx: PgliteTransaction) => Promise<T>) => Promise<T>;
};

/** The indexes of the dictionary tables as their migrations create them (drizzle/0016, drizzle/0031). */
const INDEXES = {
  entries: [
    [
      "dictionary_entries_headword_idx",
      `dictionary_entries using btree ("from_language","to_language","headword_key")`,
    ],
    ["dictionary_entries_lemma_idx", `dictionary_entries using btree ("from_language","to_language","lemma_key")`],
    ["dictionary_entries_source_idx", `dictionary_entries using btree ("source","from_language","to_language")`],
  ],
  forms: [
    ["dictionary_forms_form_idx", `dictionary_forms using btree ("language","form_key")`],
    ["dictionary_forms_source_idx", `dictionary_forms using btree ("source","language")`],
  ],
} as const;
const ENTRIES_KEY = "dictionary_entries_pkey";

/** Drops the indexes of `table` (and the entries' primary key) before a bulk load. */
export async function dropIndexes(client: PgliteClient, table: keyof typeof INDEXES): Promise<void> {
  await client.transaction(async (tx) => {
    if (table === "entries") await tx.query(`alter table dictionary_entries drop constraint if exists ${ENTRIES_KEY}`);
    for (const [name] of INDEXES[table]) await tx.query(`drop index if exists ${name}`);
  });
}

/** Builds what is missing of the indexes of `table` (and the entries' primary key). Returns the names built. */
export async function ensureIndexes(client: PgliteClient, table: keyof typeof INDEXES): Promise<string[]> {
  const existing = new Set(
    (
      (await client.query(`select indexname from pg_indexes where tablename = $1`, [`dictionary_${table}`])) as {
        rows: { indexname: string }[];
      }
    ).rows.map((row) => row.indexname),
  );
  const built: string[] = [];
  // Each index is built by one sort, in memory where it fits.
  await client.query(`set maintenance_work_mem = '256MB'`);
  if (table === "entries" && !existing.has(ENTRIES_KEY)) {
    await client.query(`alter table dictionary_entries add constraint ${ENTRIES_KEY} primary key (id)`);
    built.push(ENTRIES_KEY);
  }
  for (const [name, on] of INDEXES[table]) {
    if (existing.has(name)) continue;
    await client.query(`create index if not exists ${name} on ${on}`);
    built.push(name);
  }
  await client.query(`reset maintenance_work_mem`);
  return built;
}

/** A value in COPY's text format: backslash, tab and line ends escaped, \N for NULL. */
const copyText = (value: string | null): string =>
  value === null
    ? "\\N"
    : value.replace(/[\\\t\n\r]/g, (c) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n" })[c] ?? "\\r");

const COPY_ROWS = 50_000;

/** Writes rows into `table` with COPY, a blob of at most COPY_ROWS lines at a time. */
export async function copyRows(
  tx: PgliteTransaction,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly (string | null)[]>,
): Promise<number> {
  let lines: string[] = [];
  let written = 0;
  const flush = async () => {
    if (lines.length === 0) return;
    const blob = new Blob([lines.join("")]);
    await tx.query(`copy ${table} (${columns.join(", ")}) from '/dev/blob'`, [], { blob });
    written += lines.length;
    lines = [];
  };
  for (const row of rows) {
    lines.push(`${row.map(copyText).join("\t")}\n`);
    if (lines.length === COPY_ROWS) await flush();
  }
  await flush();
  return written;
}

/**
 * What `replaceSource` (app/dictionary/entries.server.ts) does, written with COPY on PGlite: one transaction per
 * source direction, the old entries deleted only when the source was loaded before.
 */
export async function copySource(
  client: PgliteClient,
  source: DictionarySource,
  entries: readonly ParsedEntry[],
  digest: string,
): Promise<{ removed: number; written: number }> {
  const { name, from, to } = source;
  return client.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtext($1))`, [`dictionary ${name} ${from} ${to}`]);
    const known = await tx.query(
      `select 1 from dictionary_sources where name = $1 and from_language = $2 and to_language = $3`,
      [name, from, to],
    );
    const removed =
      known.rows.length === 0
        ? 0
        : ((
            await tx.query(
              `delete from dictionary_entries where source = $1 and from_language = $2 and to_language = $3`,
              [name, from, to],
            )
          ).affectedRows ?? 0);
    const rows = function* () {
      for (const entry of entries)
        yield [
          name,
          from,
          to,
          entry.headword,
          dictionaryKey(from, entry.headword),
          entry.lemma,
          entry.lemma ? dictionaryKey(from, entry.lemma) : null,
          entry.reading,
          entry.partOfSpeech,
          JSON.stringify(entry.glosses),
        ];
    };
    const written = await copyRows(
      tx,
      "dictionary_entries",
      [
        "source",
        "from_language",
        "to_language",
        "headword",
        "headword_key",
        "lemma",
        "lemma_key",
        "reading",
        "part_of_speech",
        "glosses",
      ],
      rows(),
    );
    await upsertSource(tx, { ...source, entries: written, digest });
    return { removed, written };
  });
}

/** The row of `dictionary_sources` for a loaded source direction. */
export async function upsertSource(
  tx: PgliteTransaction,
  source: DictionarySource & { entries: number; digest: string },
): Promise<void> {
  await tx.query(
    `insert into dictionary_sources (name, from_language, to_language, title, licence, url, entries, digest, imported_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, now())
     on conflict (name, from_language, to_language) do update set title = excluded.title, licence = excluded.licence,
       url = excluded.url, entries = excluded.entries, digest = excluded.digest, imported_at = excluded.imported_at`,
    [source.name, source.from, source.to, source.title, source.licence, source.url, source.entries, source.digest],
  );
}
