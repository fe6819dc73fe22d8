/**
 * PostgreSQL behind a pooler in transaction mode (app/db/postgres-pooler.server.ts, decision 102), with the run's
 * PgBouncer (tests/support/pg-global-setup.ts) at its defaults: requests go through it, migrations, their lock and
 * `LISTEN` go to PostgreSQL itself.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { users } from "../../app/auth/auth.schema";
import { learnerChangesOf } from "../../app/db/learner-changes";
import { openDatabase, type DatabaseHandle } from "../../app/db/open.server.ts";
import { beginWith } from "../../app/db/postgres-pooler.server.ts";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { throughPooler } from "../support/pooler.ts";
import { PROJECT_ROOT } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

const MIGRATIONS = `${PROJECT_ROOT}/drizzle`;

type Rows<T> = { rows: T[] };

describe("a transaction's own settings", () => {
  it("follow its begin in the same query, and refuse anything but names and whole numbers", () => {
    expect(beginWith("begin", { statement_timeout: 10_000 })).toBe("begin; set local statement_timeout = 10000");
    expect(() => beginWith("begin", { "x; drop table users": 1 })).toThrow(/not a setting/);
    expect(() => beginWith("begin", { statement_timeout: 1.5 })).toThrow(/not a setting/);
  });
});

describe("PostgreSQL through PgBouncer in transaction mode", () => {
  let direct: string;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    direct = await createDatabase(inject("pgUrl"), `pooler_${process.pid}_${Date.now()}`);
    handle = await openDatabase({
      databaseUrl: throughPooler(direct),
      directUrl: direct,
      dataDir: "",
      migrationsFolder: MIGRATIONS,
      listen: true,
    });
  }, 60_000);
  afterAll(() => handle?.close());

  it("is refused by the pooler when opened as PostgreSQL itself: its deadlines go as startup parameters", async () => {
    await expect(
      openDatabase({ databaseUrl: throughPooler(direct), dataDir: "", migrationsFolder: MIGRATIONS }),
    ).rejects.toThrow(/unsupported startup parameter/);
  });

  it("opens, migrated on PostgreSQL itself, and hears the learner changes there", async () => {
    const { rows } = (await handle.db.execute(sql`select count(*)::int as n from users`)) as unknown as Rows<{
      n: number;
    }>;
    expect(rows[0]!.n).toBe(0);
    await vi.waitFor(() => expect(learnerChangesOf(handle.db)?.keeping).toBe(true), { timeout: 10_000 });
  });

  it("gives each transaction the statement and idle deadlines, and nothing outside one", async () => {
    const inside = await handle.db.transaction(async (tx) => {
      const statement = (await tx.execute(sql`show statement_timeout`)) as unknown as Rows<{
        statement_timeout: string;
      }>;
      const idle = (await tx.execute(sql`show idle_in_transaction_session_timeout`)) as unknown as Rows<{
        idle_in_transaction_session_timeout: string;
      }>;
      return [statement.rows[0]!.statement_timeout, idle.rows[0]!.idle_in_transaction_session_timeout];
    });
    expect(inside).toEqual(["10s", "15s"]);
    const outside = (await handle.db.execute(sql`show statement_timeout`)) as unknown as Rows<{
      statement_timeout: string;
    }>;
    expect(outside.rows[0]!.statement_timeout).toBe("0");
  });

  it("runs statements named by the app and repeated ones many times over, side by side, on the pooler's connections", async () => {
    const byEmail = handle.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, sql.placeholder("email")))
      .prepare("pooler_user_by_email");
    const runs = Array.from({ length: 60 }, (_, i) =>
      i % 2 === 0
        ? byEmail.execute({ email: `nobody-${i}@example.test` })
        : handle.db.execute(sql`select ${i}::int as i`),
    );
    const answers = await Promise.all(runs);
    expect(answers.filter((answer) => Array.isArray(answer) && answer.length === 0)).toHaveLength(30);
  });

  it("keeps the sessions' connections on PostgreSQL itself", async () => {
    const sessions = handle.sessions as unknown as {
      query: (text: string) => Promise<Rows<{ port: number }>>;
    };
    const { rows } = await sessions.query("select inet_server_port() as port");
    expect(rows[0]!.port).toBe(Number(new URL(direct).port));
  });

  it("lets a script (a backup) work on PostgreSQL itself when DATABASE_URL is the pooler", () => {
    const work = tempDir("pooler-backup");
    try {
      const file = path.join(work, "polyglot.backup");
      const result = spawnSync(process.execPath, ["scripts/db-backup.ts", file], {
        cwd: PROJECT_ROOT,
        env: { PATH: process.env.PATH ?? "", DATABASE_URL: throughPooler(direct), DATABASE_DIRECT_URL: direct },
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(result.stdout + result.stderr).not.toMatch(/unsupported startup parameter/);
      expect(result.status).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
