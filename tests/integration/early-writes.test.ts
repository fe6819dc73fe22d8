/**
 * Writes that arrive while the app starts wait for the start outside the working slots, a few of them for at most
 * EARLY_WRITE_WAIT_MS, then go on: answered as usual once the app has started, or with the translated 503 page and
 * Retry-After when it still has not (decision 016). Here the start is held by another session holding the migrations'
 * advisory lock on a real PostgreSQL, as an instance migrating the same database would.
 *
 * Needs `npm run build` (the test script builds first) and Debian's PostgreSQL.
 */
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EARLY_WRITE_WAIT_MS, EARLY_WRITES_MAX } from "../../app/edge/early-writes.server.ts";
import { startPostgres, type PostgresServer } from "../../scripts/support/postgres.ts";
import { startServer, type ServerProcess } from "../support/server-process.ts";
import { visitor } from "../support/http-visitor.ts";

/** app/db/open.server.ts: the lock every instance takes to run the migrations. */
const MIGRATION_LOCK = 727001;

describe("writes that arrive while the app starts", () => {
  let postgres: PostgresServer | undefined;
  let holder: Client | undefined;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    postgres = await startPostgres();
    const databaseUrl = await postgres.createDatabase("early_writes");
    // Migrated and loaded with the shipped lists once, so that the start let go below has little left to do: its
    // writes are answered within their wait however busy the machine is.
    const first = await startServer({ env: { DATABASE_URL: databaseUrl } });
    expect(await first.stop()).toBe(0);
    holder = new Client({ connectionString: databaseUrl });
    await holder.connect();
    await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK})`);
    server = await startServer({ env: { DATABASE_URL: databaseUrl }, waitForHealthy: false });
    await server.waitForLog((line) => line.json?.message === "listening");
  }, 180_000);

  afterAll(async () => {
    await server?.kill("SIGKILL");
    await holder?.end().catch(() => {});
    await postgres?.stop();
  });

  const confirm = () =>
    visitor(server!.baseUrl, { timeoutMs: EARLY_WRITE_WAIT_MS + 20_000 }).request("/confirm", {
      method: "POST",
      form: { token: "not-a-token" },
    });
  const waitingLines = () => server!.logs().filter((line) => line.json?.message === "write waits for the start");
  const waitedLines = () => server!.logs().filter((line) => line.json?.message === "write waited for the start");

  it("a few wait for at most the bound, the rest go on at once; 503 with Retry-After while not started", async () => {
    const held = Array.from({ length: EARLY_WRITES_MAX }, confirm);
    await server!.waitForLog(() => waitingLines().length === EARLY_WRITES_MAX, 15_000);
    // One more than the bound goes on at once, and is answered 503 while the held ones still wait.
    const over = await confirm();
    expect(over.status).toBe(503);
    expect(over.headers.get("retry-after")).toBeTruthy();
    expect(await over.text()).toMatch(/<html/i);
    expect(waitedLines()).toEqual([]);

    const answers = await Promise.all(held);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 503));
    for (const answer of answers) expect(answer.headers.get("retry-after")).toBeTruthy();
    // A log line can arrive through the pipe after the answer it tells of.
    await server!.waitForLog(() => waitedLines().length === EARLY_WRITES_MAX, 15_000);
    const waited = waitedLines().map((line) => line.json!);
    expect(waited).toHaveLength(EARLY_WRITES_MAX);
    for (const line of waited) {
      expect(line.started).toBe(false);
      // A timer's end and the clock read after it may differ by a millisecond of rounding.
      expect(line.ms).toBeGreaterThanOrEqual(EARLY_WRITE_WAIT_MS - 5);
    }
    // The health checks never waited: still starting.
    expect((await fetch(`${server!.baseUrl}/healthz`)).status).toBe(503);
  }, 60_000);

  it("a write that waits while the start finishes is answered as usual", async () => {
    const before = waitedLines().length;
    const waitingBefore = waitingLines().length;
    const pending = confirm();
    await server!.waitForLog(() => waitingLines().length > waitingBefore, 15_000);
    // The write is held; the start may now finish.
    await holder!.query(`select pg_advisory_unlock(${MIGRATION_LOCK})`);
    const answer = await pending;
    expect(answer.status).not.toBe(503);
    expect(answer.status).toBeLessThan(500);
    await server!.waitForLog(() => waitedLines().length > before, 15_000);
    const waited = waitedLines()
      .slice(before)
      .map((line) => line.json!);
    expect(waited).toEqual([expect.objectContaining({ started: true, path: "/confirm" })]);
  }, 60_000);
});
