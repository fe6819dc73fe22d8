import { createHash } from "node:crypto";
import { openSync, closeSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Database } from "./open.server.ts";

/**
 * Backups of the whole database as one file, made and restored from Node (no pg_dump): every table of the `public`
 * schema read in one REPEATABLE READ, read-only transaction (a consistent snapshot while the app runs on PostgreSQL),
 * one JSON line per row as PostgreSQL's own `row_to_json` writes it, and a last line holding the SHA-256 of everything
 * before it. A restore checks that line before it touches the database, so a truncated or altered file changes nothing.
 *
 *   {"format":"polyglot-backup","version":1,"migration":…,"tables":["users",…]}
 *   {"table":"users","rows":2}
 *   {"id":"…","email":"…",…}
 *   …
 *   {"end":true,"sha256":"…"}
 */
const FORMAT = "polyglot-backup";
const VERSION = 1;
const INSERT_BATCH = 500;
/**
 * Tables the app fills by itself (migrations, the shipped lists and their glosses at start; dictionaries an operator
 * loads are reference data too): rows there do not make a database in use.
 */
const SHIPPED_TABLES = new Set(["public_data_version", "public_terms", "dictionary_sources", "dictionary_entries"]);

type Executor = Pick<Database, "execute">;
type Header = { format: string; version: number; migration: string | null; tables: string[] };

const rowsOf = async <T>(db: Executor, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * Tables that describe this physical database rather than the app's data, never copied: a copy keeps its own (the
 * background migrations its own migrations queued, e.g. an index still to build there).
 */
const LOCAL_TABLES = new Set(["background_migrations"]);

/** The tables to copy, parents before the tables whose foreign keys point at them. */
async function tablesInOrder(db: Executor): Promise<string[]> {
  const tables = (
    await rowsOf<{ name: string }>(
      db,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
    )
  )
    .map((row) => row.name)
    .filter((name) => !LOCAL_TABLES.has(name));
  const references = await rowsOf<{ child: string; parent: string }>(
    db,
    sql`select c.relname as child, p.relname as parent from pg_constraint k
        join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = 'public' and c.oid <> p.oid`,
  );
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table) || visiting.has(table)) return;
    visiting.add(table);
    for (const { parent } of references.filter((r) => r.child === table)) visit(parent);
    ordered.push(table);
  };
  tables.forEach(visit);
  return ordered;
}

/** The last migration applied (drizzle's journal), so a backup is restored only into the same schema. */
async function lastMigration(db: Executor): Promise<string | null> {
  const rows = await rowsOf<{ hash: string }>(
    db,
    sql`select hash from drizzle.__drizzle_migrations order by created_at desc, id desc limit 1`,
  );
  return rows[0]?.hash ?? null;
}

const quoted = (table: string) => sql.raw(`"${table.replaceAll('"', '""')}"`);

/** Throws `BadBackupError(message(table))` for the first table holding rows the app did not put there by itself. */
async function assertEmpty(db: Executor, tables: string[], message: (table: string) => string) {
  for (const table of tables.filter((name) => !SHIPPED_TABLES.has(name))) {
    const [row] = await rowsOf<{ any: boolean }>(db, sql`select exists (select from ${quoted(table)}) as any`);
    if (row?.any) throw new BadBackupError(message(table));
  }
}

const truncateAll = (db: Executor, tables: string[]) =>
  db.execute(sql.raw(`truncate ${tables.map((t) => `"${t.replaceAll('"', '""')}"`).join(", ")}`));

/** Inserts rows given as `row_to_json` text, exactly (identity columns keep their values). */
async function insertRows(db: Executor, table: string, rows: string[]) {
  if (rows.length === 0) return;
  await db.execute(
    sql`insert into ${quoted(table)} overriding system value
        select * from json_populate_recordset(null::${quoted(table)}, ${`[${rows.join(",")}]`}::json)`,
  );
}

/** Identity and serial columns continue after the highest copied value. */
async function continueSequences(db: Executor, table: string) {
  const sequences = await rowsOf<{ column: string; sequence: string }>(
    db,
    sql`select a.attname as column, pg_get_serial_sequence(${`"${table}"`}, a.attname) as sequence
        from pg_attribute a where a.attrelid = ${`"${table}"`}::regclass and a.attnum > 0 and not a.attisdropped
        and pg_get_serial_sequence(${`"${table}"`}, a.attname) is not null`,
  );
  for (const { column, sequence } of sequences) {
    await db.execute(
      sql`select setval(${sequence}, coalesce((select max(${sql.raw(`"${column}"`)}) from ${quoted(table)}), 0) + 1, false)`,
    );
  }
}

const countRows = async (db: Executor, table: string) =>
  (await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from ${quoted(table)}`))[0]?.n ?? 0;

/**
 * Writes a backup of every table to `file` (first as `file.partial`, renamed when complete, so a failed backup never
 * leaves a file that looks whole). Returns the rows per table.
 */
export async function backupDatabase(db: Database, file: string): Promise<Record<string, number>> {
  const partial = `${file}.partial`;
  const hash = createHash("sha256");
  const fd = openSync(partial, "w", 0o600);
  const write = (line: string) => {
    const bytes = Buffer.from(line + "\n");
    hash.update(bytes);
    writeSync(fd, bytes);
  };
  const counts: Record<string, number> = {};
  try {
    await db.transaction(
      async (tx) => {
        const tables = await tablesInOrder(tx);
        const header: Header = { format: FORMAT, version: VERSION, migration: await lastMigration(tx), tables };
        write(JSON.stringify(header));
        for (const table of tables) {
          const rows = await rowsOf<{ row: string }>(
            tx,
            sql`select row_to_json(t)::text as row from ${quoted(table)} t`,
          );
          write(JSON.stringify({ table, rows: rows.length }));
          for (const { row } of rows) write(row);
          counts[table] = rows.length;
        }
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    writeSync(fd, JSON.stringify({ end: true, sha256: hash.digest("hex") }) + "\n");
    closeSync(fd);
    renameSync(partial, file);
    return counts;
  } catch (error) {
    closeSync(fd);
    rmSync(partial, { force: true });
    throw error;
  }
}

/** A backup file that cannot be restored: the message says why, and nothing was changed. */
export class BadBackupError extends Error {}

type Parsed = { header: Header; tables: Map<string, string[]> };

/** Reads and checks a whole backup file before anything is written: checksum, format, and each table's row count. */
export function readBackup(file: string): Parsed {
  const bad = (why: string): never => {
    throw new BadBackupError(`${file} is not a complete backup: ${why}; nothing was restored`);
  };
  const text = readFileSync(file, "utf8");
  if (!text.endsWith("\n")) bad("it does not end with a complete line (truncated?)");
  const lastStart = text.lastIndexOf("\n", text.length - 2) + 1;
  let end: { end?: boolean; sha256?: string } = {};
  try {
    end = JSON.parse(text.slice(lastStart));
  } catch {
    bad("its last line is not the end marker (truncated?)");
  }
  if (end.end !== true || typeof end.sha256 !== "string") bad("its last line is not the end marker (truncated?)");
  const body = text.slice(0, lastStart);
  if (createHash("sha256").update(body).digest("hex") !== end.sha256) bad("its checksum does not match (altered?)");
  const lines = body.split("\n").slice(0, -1);
  let header: Header;
  try {
    header = JSON.parse(lines[0] ?? "");
  } catch {
    return bad("its first line is not a backup header");
  }
  if (header.format !== FORMAT || header.version !== VERSION || !Array.isArray(header.tables)) {
    bad(`its header is not ${FORMAT} version ${VERSION}`);
  }
  const tables = new Map<string, string[]>();
  let at = 1;
  for (const table of header.tables) {
    const marker = JSON.parse(lines[at] ?? "null") as { table?: string; rows?: number } | null;
    if (marker?.table !== table || typeof marker.rows !== "number") bad(`table ${table} is not where the header says`);
    tables.set(table, lines.slice(at + 1, at + 1 + marker!.rows!));
    at += 1 + marker!.rows!;
  }
  if (at !== lines.length) bad("its tables do not add up to its length");
  return { header, tables };
}

/**
 * Replaces the database's rows with the backup's, in one transaction: the file is checked first, the schema must be
 * the one the backup was made from, and a database holding any row is refused unless `force`. Triggers of the app
 * (data versions, aggregates) are off while rows are copied, so the copy is exactly the backup; identity sequences
 * continue after the restored ids. Returns the rows per table.
 */
export async function restoreDatabase(
  db: Database,
  file: string,
  options: { force: boolean },
): Promise<Record<string, number>> {
  const { header, tables } = readBackup(file);
  const counts: Record<string, number> = {};
  await db.transaction(async (tx) => {
    const present = await tablesInOrder(tx);
    const migration = await lastMigration(tx);
    if (migration !== header.migration || [...present].sort().join() !== [...header.tables].sort().join()) {
      throw new BadBackupError(
        `${file} was made from another version of the schema (last migration ${header.migration ?? "none"}, here ` +
          `${migration ?? "none"}): restore it with the version of the app that made it; nothing was restored`,
      );
    }
    if (!options.force) {
      await assertEmpty(
        tx,
        present,
        (table) =>
          `the database is not empty (table ${table} has rows): restoring would replace everything in it; ` +
          `run again with --force to do that; nothing was restored`,
      );
    }
    await truncateAll(tx, present);
    for (const table of present) {
      const rows = tables.get(table) ?? [];
      await tx.execute(sql`alter table ${quoted(table)} disable trigger user`);
      for (let i = 0; i < rows.length; i += INSERT_BATCH) await insertRows(tx, table, rows.slice(i, i + INSERT_BATCH));
      await tx.execute(sql`alter table ${quoted(table)} enable trigger user`);
      await continueSequences(tx, table);
      const count = await countRows(tx, table);
      if (count !== rows.length) throw new Error(`table ${table}: ${count} rows after the restore, not ${rows.length}`);
      counts[table] = rows.length;
    }
  });
  return counts;
}

/** A move that was refused before anything was written: the message says why. */
export class MoveRefusedError extends Error {}

export type MovedTable = { table: string; source: number; target: number };

/**
 * Copies every row of `source` (the embedded database) into `target` (PostgreSQL), which must hold the same schema
 * (both migrated by this version of the app) and no rows yet. The source is read in one REPEATABLE READ, read-only
 * transaction (one consistent snapshot), through a cursor per table so a large table is never held in memory whole;
 * the target is written in one transaction with the app's triggers off, so either every row arrives or none does.
 * Sequences continue after the copied ids, and each table's rows are counted on both sides before the target commits.
 */
export async function moveDatabase(
  source: Database,
  target: Database,
  options: { batch?: number; onTable?: (moved: MovedTable) => void } = {},
): Promise<MovedTable[]> {
  const batch = options.batch ?? INSERT_BATCH;
  const moved: MovedTable[] = [];
  await source.transaction(
    async (from) => {
      const tables = await tablesInOrder(from);
      const migration = await lastMigration(from);
      await target.transaction(async (to) => {
        const present = await tablesInOrder(to);
        const targetMigration = await lastMigration(to);
        if (targetMigration !== migration || [...present].sort().join() !== [...tables].sort().join()) {
          throw new MoveRefusedError(
            `the target's schema (last migration ${targetMigration ?? "none"}) is not the source's ` +
              `(${migration ?? "none"}); nothing was copied`,
          );
        }
        await assertEmpty(
          to,
          present,
          (table) =>
            `the target database is not empty (table ${table} has rows): move only into an empty PostgreSQL ` +
            `database; nothing was copied`,
        );
        await truncateAll(to, present);
        for (const [index, table] of tables.entries()) {
          await to.execute(sql`alter table ${quoted(table)} disable trigger user`);
          const cursor = sql.raw(`move_${index}`);
          await from.execute(
            sql`declare ${cursor} no scroll cursor for select row_to_json(t)::text as row from ${quoted(table)} t`,
          );
          for (;;) {
            const rows = await rowsOf<{ row: string }>(
              from,
              sql`fetch forward ${sql.raw(String(batch))} from ${cursor}`,
            );
            await insertRows(
              to,
              table,
              rows.map((r) => r.row),
            );
            if (rows.length < batch) break;
          }
          await from.execute(sql`close ${cursor}`);
          await to.execute(sql`alter table ${quoted(table)} enable trigger user`);
          await continueSequences(to, table);
          const counted = { table, source: await countRows(from, table), target: await countRows(to, table) };
          if (counted.source !== counted.target) {
            throw new Error(
              `table ${table}: ${counted.target} rows in the target, ${counted.source} in the source; nothing was copied`,
            );
          }
          moved.push(counted);
          options.onTable?.(counted);
        }
      });
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  return moved;
}
