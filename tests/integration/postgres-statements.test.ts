/**
 * On PostgreSQL, a parameterised statement sent a second time goes out under a name: each connection parses it once and
 * then only binds and executes it (app/db/postgres-statements.server.ts, decision 079). Checked on a real server through
 * the pool the app opens, one checked-out connection at a time, against what `pg_prepared_statements` lists for it.
 */
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../app/db/open.server.ts";
import { statementNames } from "../../app/db/postgres-statements.server.ts";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { PROJECT_ROOT } from "../support/server-process.ts";

const MIGRATIONS = `${PROJECT_ROOT}/drizzle`;

describe("statement names", () => {
  it("names a text from its second time, always the same name, and no more texts than its limit", () => {
    const nameOf = statementNames(2);
    expect(nameOf("a")).toBeUndefined();
    const a = nameOf("a");
    expect(a).toBeDefined();
    expect(nameOf("a")).toBe(a);
    nameOf("b");
    const b = nameOf("b");
    expect(b).toBeDefined();
    expect(b).not.toBe(a);
    // The limit is reached: a third text goes out unnamed however often it is sent; the named ones keep their name.
    for (let i = 0; i < 5; i++) expect(nameOf("c")).toBeUndefined();
    expect(nameOf("a")).toBe(a);
    expect(nameOf("b")).toBe(b);
  });

  it("forgets texts seen once together, so a stream of different texts takes bounded memory and no name", () => {
    const nameOf = statementNames(10);
    for (let i = 0; i < 5_000; i++) expect(nameOf(`select ${i}`)).toBeUndefined();
    // The last ones are still remembered: the second time names them.
    expect(nameOf("select 4999")).toBeDefined();
  });
});

describe("PostgreSQL, repeated statements prepared per connection", () => {
  let handle: DatabaseHandle;
  let client: pg.PoolClient;

  const prepared = async () =>
    (await client.query("select name, statement from pg_prepared_statements order by name")).rows as {
      name: string;
      statement: string;
    }[];

  beforeAll(async () => {
    const databaseUrl = await createDatabase(inject("pgUrl"), `statements_${process.pid}_${Date.now()}`);
    handle = await openDatabase({ databaseUrl, dataDir: "", migrationsFolder: MIGRATIONS });
    client = await (handle.client as unknown as pg.Pool).connect();
  }, 60_000);
  afterAll(async () => {
    client?.release();
    await handle?.close();
  });

  it("prepares a statement sent twice and answers it as before, from its first run to its later ones", async () => {
    const db = drizzle(client);
    const text = "select $1::int + 1 as next, $2::text as word";
    const before = await prepared();
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push((await db.execute(sql.raw(text.replace("$1", `${i}`).replace("$2", "'x'")))).rows);
    // drizzle's own parameters: the same text each time, other values.
    const sent = [];
    for (let i = 0; i < 4; i++)
      sent.push((await db.execute(sql`select ${i}::int + 1 as next, ${"wort"}::text as word`)).rows);
    expect(sent).toEqual([0, 1, 2, 3].map((i) => [{ next: i + 1, word: "wort" }]));
    expect(answers).toEqual([0, 1, 2, 3].map((i) => [{ next: i + 1, word: "x" }]));
    const after = await prepared();
    const added = after.filter((p) => !before.some((b) => b.name === p.name));
    // Only the statement with parameters was named (once, however often it ran); the texts without any go as they are.
    expect(added).toHaveLength(1);
    expect(added[0]!.statement).toContain("::int + 1 as next");
  });

  it("leaves a statement without parameters unnamed, so several statements in one text still run", async () => {
    const before = (await prepared()).length;
    for (let i = 0; i < 3; i++) {
      const results = (await client.query("select 1 as one; select 2 as two")) as unknown as pg.QueryResult[];
      expect(results.map((r) => r.rows[0])).toEqual([{ one: 1 }, { two: 2 }]);
    }
    expect(await prepared()).toHaveLength(before);
  });

  it("keeps a named statement usable after it failed, and inside a transaction rolled back", async () => {
    const divide = { text: "select 10 / $1::int as quotient" };
    await client.query({ ...divide, values: [2] });
    expect((await client.query({ ...divide, values: [5] })).rows).toEqual([{ quotient: 2 }]);
    await expect(client.query({ ...divide, values: [0] })).rejects.toMatchObject({ code: "22012" });
    expect((await client.query({ ...divide, values: [10] })).rows).toEqual([{ quotient: 1 }]);
    await client.query("begin");
    expect((await client.query({ ...divide, values: [1] })).rows).toEqual([{ quotient: 10 }]);
    await client.query("rollback");
    expect((await client.query({ ...divide, values: [2] })).rows).toEqual([{ quotient: 5 }]);
    expect((await prepared()).some((p) => p.statement.includes("10 / $1::int"))).toBe(true);
  });

  it("prepares a statement again when its rows changed shape (another instance's migration): one failure, then answers", async () => {
    await client.query("create table shape_test (id int primary key, word text)");
    await client.query("insert into shape_test values (1, 'eins')");
    const read = { text: "select * from shape_test where id = $1", values: [1] };
    await client.query(read);
    expect((await client.query(read)).rows).toEqual([{ id: 1, word: "eins" }]);
    // Written on another connection, as another instance's migration would.
    await handle.db.execute(sql`alter table shape_test add column note text default 'neu'`);
    await expect(client.query(read)).rejects.toMatchObject({ code: "0A000" });
    expect((await client.query(read)).rows).toEqual([{ id: 1, word: "eins", note: "neu" }]);
    expect((await client.query(read)).rows).toEqual([{ id: 1, word: "eins", note: "neu" }]);
    // The same through the pool's own `query` (node-postgres's callback form).
    const pool = handle.client as unknown as pg.Pool;
    for (let i = 0; i < 3; i++) expect((await pool.query(read)).rows).toHaveLength(1);
  });

  it("passes a statement that already has a name as it is", async () => {
    const own = { name: "own_statement", text: "select $1::text as said" };
    for (let i = 0; i < 3; i++)
      expect((await client.query({ ...own, values: [`${i}`] })).rows).toEqual([{ said: `${i}` }]);
    expect((await prepared()).filter((p) => p.statement.includes("as said")).map((p) => p.name)).toEqual([
      "own_statement",
    ]);
  });
});
