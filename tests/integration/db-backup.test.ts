/**
 * `node scripts/db-backup.ts` (npm run db:backup / db:restore) on the embedded database and on PostgreSQL: a learner's
 * data round-trips exactly; the embedded database's backup refuses to run beside its server; a restore refuses a
 * database in use without --force; a truncated or altered file is refused and changes nothing.
 *
 * Needs `npm run build` (the server makes the data) and the PostgreSQL server of tests/support/pg-global-setup.ts.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { visitor } from "../support/http-visitor.ts";
import { PROJECT_ROOT, startServer, type ServerProcess } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

const work = tempDir("db-backup");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["scripts/db-backup.ts", ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, out: result.stdout + result.stderr };
}

/** A learner with a session, a sign-in link, rate-limit events (an identity column) and a term, made through the app. */
async function learnerData(server: ServerProcess) {
  const email = `backup-${Date.now().toString(36)}@example.com`;
  const learner = visitor(server.baseUrl);
  await learner.requestSignIn(email);
  const line = await server.waitForLog((l) => l.json?.to === email);
  await learner.confirm(String(line.json!.link));
  expect((await learner.page("/account/home")).response.status).toBe(200);
  return email;
}

/** The rows of a backup file, by table, without its header and checksum lines (which name the moment and file). */
function rowsOf(file: string): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .slice(1, -2)
    .filter((line) => !line.startsWith('{"table":'))
    .sort();
}

describe("backup and restore of the embedded database", () => {
  const source = path.join(work, "source");
  const file = path.join(work, "embedded.backup");
  let email = "";

  it("refuses a backup while the server holds the database, saying to stop it", async () => {
    const server = await startServer({ env: { DATA_DIR: source, AUTH_PROVIDER: "local" } });
    try {
      email = await learnerData(server);
      const busy = run([file], { DATA_DIR: source });
      expect(busy.status).toBe(1);
      expect(busy.out).toMatch(/Stop the server first/);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("round-trips every row into a new data directory, which the app then serves", async () => {
    const backup = run([file], { DATA_DIR: source });
    expect(backup.out).toMatch(/^db-backup: wrote \d+ rows of \d+ tables/);
    expect(backup.status).toBe(0);
    expect(readFileSync(file, "utf8")).toContain(email);

    const target = path.join(work, "target");
    const restore = run(["--restore", file], { DATA_DIR: target });
    expect(restore.out).toMatch(/^db-backup: restored \d+ rows/);
    expect(restore.status).toBe(0);
    // The copy, backed up again, holds exactly the same rows.
    const again = path.join(work, "again.backup");
    expect(run([again], { DATA_DIR: target }).status).toBe(0);
    expect(rowsOf(again)).toEqual(rowsOf(file));
    expect(rowsOf(file).some((row) => row.includes('"identifier"') || row.includes('"email"'))).toBe(true);

    // The app starts on the copy, and a new learner signs in (new rate-limit rows take ids after the restored ones).
    const server = await startServer({ env: { DATA_DIR: target, AUTH_PROVIDER: "local" } });
    try {
      await learnerData(server);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("refuses to overwrite a database in use without --force, and does it with --force", () => {
    const target = path.join(work, "target");
    const refused = run(["--restore", file], { DATA_DIR: target });
    expect(refused.status).toBe(1);
    expect(refused.out).toMatch(/not empty .*--force.*nothing was restored/);
    const forced = run(["--restore", file, "--force"], { DATA_DIR: target });
    expect(forced.status).toBe(0);
    const again = path.join(work, "forced.backup");
    expect(run([again], { DATA_DIR: target }).status).toBe(0);
    expect(rowsOf(again)).toEqual(rowsOf(file));
  }, 60_000);

  for (const [what, damage, message] of [
    ["a truncated", (text: string) => text.slice(0, Math.floor(text.length * 0.6)), /truncated/],
    ["a cut-off", (text: string) => text.split("\n").slice(0, 5).join("\n") + "\n", /end marker/],
    ["an altered", (text: string) => text.replace(email, email.replace("backup", "bakkup")), /checksum/],
    ["an empty", () => "", /truncated/],
  ] as const) {
    it(`refuses ${what} file with a clear message and changes nothing`, () => {
      const broken = path.join(work, `${what.replaceAll(" ", "-")}.backup`);
      writeFileSync(broken, damage(readFileSync(file, "utf8")));
      const target = path.join(work, "target");
      const before = path.join(work, `before-${what.replaceAll(" ", "-")}.backup`);
      expect(run([before], { DATA_DIR: target }).status).toBe(0);
      const result = run(["--restore", broken, "--force"], { DATA_DIR: target });
      expect(result.status).toBe(1);
      expect(result.out).toMatch(/is not a complete backup/);
      expect(result.out).toMatch(message);
      expect(result.out).toMatch(/nothing was restored/);
      const after = path.join(work, `after-${what.replaceAll(" ", "-")}.backup`);
      expect(run([after], { DATA_DIR: target }).status).toBe(0);
      expect(rowsOf(after)).toEqual(rowsOf(before));
    }, 60_000);
  }
});

describe("backup and restore on PostgreSQL", () => {
  it("backs up while the app serves and round-trips into an empty database", async () => {
    const sourceUrl = await createDatabase(inject("pgUrl"), `backup_source_${process.pid}_${Date.now()}`);
    const targetUrl = await createDatabase(inject("pgUrl"), `backup_target_${process.pid}_${Date.now()}`);
    const file = path.join(work, "postgres.backup");
    const server = await startServer({ env: { DATABASE_URL: sourceUrl, AUTH_PROVIDER: "local" } });
    let email: string;
    try {
      email = await learnerData(server);
      const backup = run([file], { DATABASE_URL: sourceUrl });
      expect(backup.out).toMatch(/^db-backup: wrote/);
      expect(backup.status).toBe(0);
    } finally {
      await server.stop();
    }
    expect(readFileSync(file, "utf8")).toContain(email);
    const restore = run(["--restore", file], { DATABASE_URL: targetUrl });
    expect(restore.out).toMatch(/^db-backup: restored/);
    expect(restore.status).toBe(0);
    const again = path.join(work, "postgres-again.backup");
    expect(run([again], { DATABASE_URL: targetUrl }).status).toBe(0);
    expect(rowsOf(again)).toEqual(rowsOf(file));
    expect(run(["--restore", file], { DATABASE_URL: targetUrl }).status).toBe(1);
  }, 120_000);
});
