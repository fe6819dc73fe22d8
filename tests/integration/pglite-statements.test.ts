/**
 * The embedded database's thread keeps the statements the app sends again prepared (app/db/pglite-statements.ts):
 * what a kept statement answers is what PGlite's own `query` answers (rows, types, errors), inside and outside a
 * transaction, and no more statements are kept than the bound, however many texts come. A real PGlite, in memory.
 */
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEPT_STATEMENTS, preparedStatements } from "../../app/db/pglite-statements.ts";

describe("statements kept prepared on the embedded database", () => {
  let db: PGlite;
  let statements: ReturnType<typeof preparedStatements>;

  beforeAll(async () => {
    db = await PGlite.create();
    statements = preparedStatements(db);
    await db.exec(`CREATE TABLE "cards" ("id" uuid PRIMARY KEY, "text" text NOT NULL UNIQUE, "due" timestamptz,
      "tags" text[] NOT NULL DEFAULT '{}', "data" jsonb, "reps" integer NOT NULL DEFAULT 0, "done" boolean)`);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  const insert = `insert into "cards" ("id", "text", "due", "tags", "data", "reps", "done")
    values ($1, $2, $3, $4, $5, $6, $7) returning "id", "due", "tags", "data", "reps", "done"`;
  const select = `select "id", "text", "due", "tags", "data", "reps", "done" from "cards"
    where "due" <= $1 and "tags" && $2 order by "due", "text"`;

  it("answers a statement sent again as PGlite answers it anew: rows, types, nulls and quotes alike", async () => {
    const rows = [
      [
        "7d1f4c9e-0a52-4f7e-9d0e-3b1c2a4d5e60",
        "der Hund",
        new Date("2026-11-01T10:00:00Z"),
        ["a", "b"],
        { x: 1 },
        3,
        true,
      ],
      [
        "7d1f4c9e-0a52-4f7e-9d0e-3b1c2a4d5e61",
        'l\'été "chaud" \\',
        new Date("2026-11-02T10:00:00Z"),
        ["b"],
        null,
        0,
        null,
      ],
      ["7d1f4c9e-0a52-4f7e-9d0e-3b1c2a4d5e62", "猫", null, [], [1, "二"], 7, false],
    ];
    for (const row of rows) {
      const kept = await statements.query(null, insert, row);
      const {
        rows: [stored],
      } = await db.query(`select "id", "due", "tags", "data", "reps", "done" from "cards" where "id" = $1`, [row[0]]);
      expect(kept.rows).toEqual([stored]);
    }
    // The insert came three times: kept from its second.
    expect(statements.size).toBe(1);
    const params = [new Date("2026-11-03T00:00:00Z"), ["b", "z"]];
    const fresh = await db.query(select, params);
    expect(fresh.rows).toHaveLength(2);
    for (let i = 0; i < 8; i++) {
      const kept = await statements.query(null, select, params);
      expect(kept.rows).toEqual(fresh.rows);
      expect(kept.fields).toEqual(fresh.fields);
    }
    expect(statements.size).toBe(2);
    // Array rows as drizzle asks for them, and its own parsers for a type (dates kept as text).
    const arrays = await statements.query(null, select, params, {
      rowMode: "array",
      parsers: { 1184: (v: string) => v },
    });
    const direct = await db.query(select, params, { rowMode: "array", parsers: { 1184: (v: string) => v } });
    expect(arrays.rows).toEqual(direct.rows);
    expect(typeof (arrays.rows[0] as unknown[])[2]).toBe("string");
  });

  it("reports a kept statement's errors as PGlite does, and the statement stays usable", async () => {
    const duplicate = ["7d1f4c9e-0a52-4f7e-9d0e-3b1c2a4d5e70", "der Hund", null, [], null, 0, null];
    for (let i = 0; i < 3; i++)
      await expect(statements.query(null, insert, duplicate)).rejects.toMatchObject({ code: "23505" });
    const ok = await statements.query(null, insert, [duplicate[0], "die Katze", null, [], null, 0, null]);
    expect(ok.rows).toHaveLength(1);
  });

  it("runs within a transaction, rolled back with it, and a statement outside waits for the transaction's end", async () => {
    const count = `select count(*)::int as "n" from "cards" where "text" like $1`;
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await expect(
      db.transaction(async (tx) => {
        for (let i = 0; i < 3; i++)
          await statements.query(tx, insert, [
            `7d1f4c9e-0a52-4f7e-9d0e-3b1c2a4d5e8${i}`,
            `tx ${i}`,
            null,
            [],
            null,
            i,
            null,
          ]);
        const inside = await statements.query(tx, count, ["tx %"]);
        expect(inside.rows).toEqual([{ n: 3 }]);
        outside = statements.query(null, count, ["tx %"]).then((result) => {
          order.push("outside");
          return result;
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        order.push("transaction");
        // A kept statement's error inside the transaction aborts it, as any error does.
        await statements.query(tx, insert, ["7d1f4c9e-0a52-4f7e-9d0e-3b1c2a4d5e90", "tx 0", null, [], null, 0, null]);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    const after = (await outside) as { rows: unknown[] };
    expect(order).toEqual(["transaction", "outside"]);
    expect(after.rows).toEqual([{ n: 0 }]);
  });

  it("keeps no more than its bound, the least recently used going first, and prepares again what went", async () => {
    const texts = Array.from({ length: KEPT_STATEMENTS + 40 }, (_, i) => `select $1::int + ${i} as "n"`);
    for (const text of texts) for (let i = 0; i < 2; i++) await statements.query(null, text, [1]);
    expect(statements.size).toBe(KEPT_STATEMENTS);
    const { rows } = await db.query(`select count(*)::int as "n" from pg_prepared_statements`);
    expect(rows).toEqual([{ n: KEPT_STATEMENTS }]);
    for (let i = 0; i < 3; i++) expect((await statements.query(null, texts[0]!, [41])).rows).toEqual([{ n: 41 }]);
    expect(statements.size).toBe(KEPT_STATEMENTS);
  }, 60_000);

  it("prepares nothing for a text sent once", async () => {
    const before = statements.size;
    const preparedNow = async () =>
      (await db.query<{ n: number }>(`select count(*)::int as "n" from pg_prepared_statements`)).rows[0]?.n;
    const prepared = await preparedNow();
    await statements.query(null, `select 'once' as "seen"`, []);
    expect(statements.size).toBe(before);
    expect(await preparedNow()).toBe(prepared);
  });
});
