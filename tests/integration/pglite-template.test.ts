/**
 * DATA_TEMPLATE_DIR: a fresh DATA_DIR gets a copy of an initialised database instead of running PGlite's initdb (the
 * container's first start), the copy is brought up to the current migrations, and a DATA_DIR that already holds a
 * database is never overwritten. Copies are told from initdb runs by PostgreSQL's system identifier, which initdb
 * draws anew and a copy keeps.
 *
 * Needs `npm run build` for the server start (the test script builds first).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../app/db/open.server.ts";
import { PROJECT_ROOT, startServer } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

const MIGRATIONS = path.join(PROJECT_ROOT, "drizzle");
const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, "meta", "_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};

async function rows<T>(handle: DatabaseHandle, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Opens the data directory (copying the template when given), reads what the test looks at, closes it. */
async function inspect(dataDir: string, templateDir?: string, migrationsFolder = MIGRATIONS) {
  const handle = await openDatabase({ dataDir, templateDir, migrationsFolder });
  try {
    const [control] = await rows<{ id: string }>(
      handle,
      sql`select system_identifier::text as id from pg_control_system()`,
    );
    const [applied] = await rows<{ n: number }>(
      handle,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    const [marker] = await rows<{ n: number }>(
      handle,
      sql`select count(*)::int as n from pg_tables where tablename = 'kept'`,
    );
    return { systemId: control?.id, migrations: applied?.n, hasMarker: marker?.n === 1 };
  } finally {
    await handle.close();
  }
}

describe("PGlite DATA_DIR from a template", () => {
  let root: string;
  let templateDir: string;
  let templateId: string | undefined;
  let oldMigrations: string;

  beforeAll(() => {
    root = tempDir("template");
    // An older template (the first migration only), made by the script the image runs at build time.
    oldMigrations = path.join(root, "old-migrations");
    mkdirSync(path.join(oldMigrations, "meta"), { recursive: true });
    const first = journal.entries[0]!;
    copyFileSync(path.join(MIGRATIONS, `${first.tag}.sql`), path.join(oldMigrations, `${first.tag}.sql`));
    writeFileSync(path.join(oldMigrations, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: [first] }));
    templateDir = path.join(root, "template");
    const script = path.join(PROJECT_ROOT, "scripts", "data-template.ts");
    execFileSync(process.execPath, [script, templateDir, "--migrations", oldMigrations], { stdio: "pipe" });
  }, 120_000);

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it("copies the template into an empty DATA_DIR and applies the newer migrations", { timeout: 60_000 }, async () => {
    // Read with its own migrations only, so it stays older than the app.
    templateId = (await inspect(templateDir, undefined, oldMigrations)).systemId;
    expect(templateId).toMatch(/^\d+$/);
    const dataDir = path.join(root, "fresh");
    mkdirSync(dataDir);
    const opened = await inspect(dataDir, templateDir);
    expect(opened.systemId).toBe(templateId);
    expect(opened.migrations).toBe(journal.entries.length);
    // The template itself is only read.
    expect((await inspect(templateDir, undefined, oldMigrations)).migrations).toBe(1);
  });

  it("never overwrites a DATA_DIR that holds a database", { timeout: 60_000 }, async () => {
    const dataDir = path.join(root, "own");
    const own = await openDatabase({ dataDir, migrationsFolder: MIGRATIONS });
    await own.db.execute(sql`create table kept (id int)`);
    await own.close();
    const ownId = (await inspect(dataDir)).systemId;
    expect(ownId).not.toBe(templateId);

    const reopened = await inspect(dataDir, templateDir);
    expect(reopened).toEqual({ systemId: ownId, migrations: journal.entries.length, hasMarker: true });
  });

  it("removes a copy cut short by a kill and copies again", { timeout: 60_000 }, async () => {
    const dataDir = path.join(root, "interrupted");
    const halfCopy = path.join(dataDir, ".pglite-copy-AbC123");
    mkdirSync(path.join(halfCopy, "base"), { recursive: true });
    writeFileSync(path.join(halfCopy, "PG_VERSION"), "17\n");
    const opened = await inspect(dataDir, templateDir);
    expect(opened.systemId).toBe(templateId);
    expect(readdirSync(dataDir).filter((name) => name.startsWith(".pglite-copy-"))).toEqual([]);
  });

  it("the server starts on an empty DATA_DIR from DATA_TEMPLATE_DIR without initdb", { timeout: 90_000 }, async () => {
    const dataDir = path.join(root, "server");
    const started = Date.now();
    const server = await startServer({ env: { DATA_DIR: dataDir, DATA_TEMPLATE_DIR: templateDir } });
    const readyMs = Date.now() - started;
    const ready = (await server.waitForLog((line) => line.json?.message === "database ready")).json;
    expect(await server.stop()).toBe(0);
    console.info(
      `server healthy ${readyMs} ms after spawn on a template copy; database ready in ${String(ready?.ms)} ms`,
    );
    expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
    const opened = await inspect(dataDir);
    expect(opened.systemId).toBe(templateId);
    expect(opened.migrations).toBe(journal.entries.length);
  });

  it(
    "`npm start` without DATA_TEMPLATE_DIR copies the template `npm run build` wrote",
    { timeout: 90_000 },
    async () => {
      const buildTemplate = path.join(PROJECT_ROOT, "build", "data-template");
      expect(existsSync(path.join(buildTemplate, "pglite", "PG_VERSION"))).toBe(true);
      const dataDir = path.join(root, "from-build");
      const server = await startServer({ env: { DATA_DIR: dataDir, DATA_TEMPLATE_DIR: undefined } });
      expect(await server.stop()).toBe(0);
      // The build's template is only ever read: its identifier is read from a copy of it.
      const copy = path.join(root, "build-template-copy");
      cpSync(buildTemplate, copy, { recursive: true });
      const [fromBuild, started] = [await inspect(copy), await inspect(dataDir)];
      expect(started.systemId).toBe(fromBuild.systemId);
      expect(started.migrations).toBe(journal.entries.length);
    },
  );

  it(
    "a template made with --app holds the shipped lists; a start on a copy keeps them",
    { timeout: 90_000 },
    async () => {
      const appTemplate = path.join(root, "app-template");
      const script = path.join(PROJECT_ROOT, "scripts", "data-template.ts");
      const build = path.join(PROJECT_ROOT, "build", "server", "index.js");
      execFileSync(process.execPath, [script, appTemplate, "--app", build], { cwd: PROJECT_ROOT, stdio: "pipe" });
      expect(readdirSync(appTemplate)).toEqual(["pglite"]);
      // Only the write-ahead log segment of the last checkpoint is left: the recycled spares (16 MB each) are removed.
      const segments = readdirSync(path.join(appTemplate, "pglite", "pg_wal")).filter((name) =>
        /^[0-9A-F]{24}$/.test(name),
      );
      expect(segments).toHaveLength(1);
      const lists = async (dataDir: string) => {
        const handle = await openDatabase({ dataDir, migrationsFolder: MIGRATIONS });
        try {
          return await rows<{ terms: number; digest: string | null; newest: string; databases: string }>(
            handle,
            sql`select count(*)::int as terms, obj_description('public_terms'::regclass, 'pg_class') as digest,
            max(xmin::text::bigint)::text as newest, (select string_agg(datname, ',') from pg_database) as databases
            from public_terms`,
          );
        } finally {
          await handle.close();
        }
      };
      const [loaded] = await lists(appTemplate);
      expect(loaded?.terms).toBeGreaterThan(1000);
      expect(loaded?.digest).toMatch(/^shipped lists sha256:[0-9a-f]{64}$/);
      // PostgreSQL's template databases are not in it: a copy has a third of the files.
      expect(loaded?.databases).toBe("postgres");

      const dataDir = path.join(root, "from-app-template");
      const server = await startServer({ env: { DATA_DIR: dataDir, DATA_TEMPLATE_DIR: appTemplate } });
      const explore = await fetch(`${server.baseUrl}/explore?language=de&level=beginner`);
      expect(await server.stop()).toBe(0);
      expect(explore.status).toBe(200);
      expect(await lists(dataDir)).toEqual([loaded]);
    },
  );

  it("a DATA_TEMPLATE_DIR without a database stops the server, naming the variable", { timeout: 30_000 }, async () => {
    const empty = path.join(root, "not-a-template");
    mkdirSync(empty);
    const server = await startServer({
      env: { DATA_DIR: path.join(root, "unused"), DATA_TEMPLATE_DIR: empty },
      waitForHealthy: false,
    });
    expect(await server.exited).toBe(1);
    expect(
      server
        .logs()
        .map((line) => line.text)
        .join("\n"),
    ).toMatch(/DATA_TEMPLATE_DIR: holds no embedded database/);
  });
});
