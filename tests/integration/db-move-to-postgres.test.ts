/**
 * `node scripts/db-move-to-postgres.ts` (npm run db:move-to-postgres): an embedded database made by the app moves into
 * an empty PostgreSQL database exactly (a backup of each side holds the same rows), the app then serves from it and
 * takes new ids after the copied ones; the move refuses while the server holds the data directory, and refuses a
 * target that holds rows without changing it.
 *
 * Needs `npm run build` (the server makes the data) and the PostgreSQL server of tests/support/pg-global-setup.ts.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { visitor } from "../support/http-visitor.ts";
import { PROJECT_ROOT, startServer, type ServerProcess } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

const work = tempDir("db-move");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(script: string, args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, out: result.stdout + result.stderr };
}
const move = (env: Record<string, string>) => run("scripts/db-move-to-postgres.ts", [], env);
const backup = (file: string, env: Record<string, string>) => run("scripts/db-backup.ts", [file], env);

/** A learner with a session, sign-in rate-limit rows (an identity column) and a term, made through the app. */
async function learnerData(server: ServerProcess) {
  const email = `move-${Date.now().toString(36)}@example.com`;
  const learner = visitor(server.baseUrl);
  await learner.requestSignIn(email);
  const line = await server.waitForLog((l) => l.json?.to === email);
  await learner.confirm(String(line.json!.link));
  expect((await learner.page("/account/home")).response.status).toBe(200);
  return email;
}

/** The rows of a backup file, sorted, without its header, table markers and checksum (which name moment and file). */
function rowsOf(file: string): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .slice(1, -2)
    .filter((line) => !line.startsWith('{"table":'))
    .sort();
}

describe("moving the embedded database to PostgreSQL", () => {
  const source = path.join(work, "source");
  let email = "";
  let targetUrl = "";

  it("refuses while the server holds the embedded database, saying to stop it, and writes nothing", async () => {
    targetUrl = await createDatabase(inject("pgUrl"), `move_target_${process.pid}_${Date.now()}`);
    const server = await startServer({ env: { DATA_DIR: source, AUTH_PROVIDER: "local" } });
    try {
      email = await learnerData(server);
      const busy = move({ DATA_DIR: source, DATABASE_URL: targetUrl });
      expect(busy.out).toMatch(/Stop the server first/);
      expect(busy.status).toBe(1);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("copies every row, says each table's count matches, and the app serves from the copy", async () => {
    const moved = move({ DATA_DIR: source, DATABASE_URL: targetUrl });
    expect(moved.out).toMatch(
      /^db-move-to-postgres: copied \d+ rows in \d+ tables .* every table's row count matches/m,
    );
    expect(moved.out).toMatch(/^ {2}users: 1 rows copied, 1 counted in PostgreSQL$/m);
    expect(moved.status).toBe(0);

    const before = path.join(work, "source.backup");
    const after = path.join(work, "target.backup");
    expect(backup(before, { DATA_DIR: source }).status).toBe(0);
    expect(backup(after, { DATABASE_URL: targetUrl }).status).toBe(0);
    expect(rowsOf(after)).toEqual(rowsOf(before));
    expect(readFileSync(after, "utf8")).toContain(email);

    // On the copy, a new learner signs in: rate-limit rows take ids after the copied ones (sequences were moved on).
    const server = await startServer({ env: { DATABASE_URL: targetUrl, AUTH_PROVIDER: "local" } });
    try {
      await learnerData(server);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("refuses a target that holds rows and changes nothing in it", () => {
    const before = path.join(work, "target-before.backup");
    expect(backup(before, { DATABASE_URL: targetUrl }).status).toBe(0);
    const refused = move({ DATA_DIR: source, DATABASE_URL: targetUrl });
    expect(refused.out).toMatch(/target database is not empty \(table \w+ has rows\).*nothing was copied/);
    expect(refused.status).toBe(1);
    const after = path.join(work, "target-after.backup");
    expect(backup(after, { DATABASE_URL: targetUrl }).status).toBe(0);
    expect(rowsOf(after)).toEqual(rowsOf(before));
  }, 60_000);

  it("says what it needs without DATABASE_URL", () => {
    const result = move({ DATA_DIR: source });
    expect(result.status).toBe(2);
    expect(result.out).toMatch(/DATABASE_URL is not set/);
  });
});
