/**
 * One learner's page times on PostgreSQL, to compare a database holding 10,000 learners with one holding that learner
 * alone (docs/operations.md, "A database of 10,000 learners"). Seed both first with scripts/db-scale/seed.sql:
 *
 *   DATABASE_URL="$ALONE" npm run seed -- --bulk --learners 1
 *   DATABASE_URL="$SCALE" npm run seed -- --bulk --learners 10000
 *   npm run build && node scripts/db-scale/measure.ts "$ALONE" "$SCALE"
 *
 * For each database it starts the production server (`node server.ts`), signs bench+1@example.com in, and requests
 * the learner's home, review, statistics, text list and a term page: first 10 times each to warm up, then 60 times
 * one after the other (1 connection) and 10 × 20 times at once (10 connections). The home page gets a new query each
 * time, so it is drawn, not answered from the learner's kept pages. Prints medians and 95th percentiles per page and
 * the ratio of the second database's medians to the first's.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { visitor } from "../../tests/support/http-visitor.ts";
import { startServer } from "../../tests/support/server-process.ts";

const [aloneUrl, scaleUrl] = process.argv.slice(2);
if (!aloneUrl || !scaleUrl) {
  console.error("usage: node scripts/db-scale/measure.ts ALONE_DATABASE_URL SCALE_DATABASE_URL");
  process.exit(2);
}
const EMAIL = "bench+1@example.com";
const SEQUENTIAL = 60;
const PARALLEL = 10;
const EACH = 20;

type Figures = Record<string, { one: { median: number; p95: number }; ten: { median: number; p95: number } }>;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const round = (ms: number) => Math.round(ms * 10) / 10;

async function measure(databaseUrl: string): Promise<Figures> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query(
    `select t.id from terms t join users u on u.id = t.user_id where u.email = $1 order by t.created_at limit 1`,
    [EMAIL],
  );
  await client.query(`delete from rate_limit_events`);
  const pending = (await client.query(`select name from background_migrations where done_at is null`)).rows.length;
  await client.end();
  const dataDir = mkdtempSync(path.join(tmpdir(), "polyglot-scale-"));
  const server = await startServer({
    env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, AUTH_PROVIDER: "local", MAX_REQUESTS_IN_FLIGHT: "100" },
    healthTimeoutMs: 120_000,
  });
  try {
    // A fresh database's background migrations (an index built concurrently) run first, not during the timings.
    if (pending > 0) {
      const job = await server.waitForLog(
        (l) => l.json?.message === "background migration done" || l.json?.message === "background migration failed",
        30 * 60_000,
      );
      console.log(`${new URL(databaseUrl).pathname}: ${String(job.json!.message)} in ${String(job.json!.ms)} ms`);
    }
    const learner = visitor(server.baseUrl, { timeoutMs: 60_000 });
    await learner.requestSignIn(EMAIL);
    const line = await server.waitForLog((l) => l.json?.to === EMAIL);
    await learner.confirm(String(line.json!.link));
    let n = 0;
    const pages: Record<string, () => string> = {
      home: () => `/account/home?m=${n++}`,
      review: () => "/account/review",
      statistics: () => "/account/statistics",
      texts: () => "/account/texts",
      term: () => `/account/terms/${String(rows[0]!.id)}`,
    };
    const timed = async (page: string) => {
      const started = performance.now();
      const response = await learner.request(page);
      await response.text();
      if (response.status !== 200) throw new Error(`${page}: ${response.status}`);
      return performance.now() - started;
    };
    const figures: Figures = {};
    for (const [name, next] of Object.entries(pages)) {
      for (let i = 0; i < 10; i++) await timed(next());
      const one: number[] = [];
      for (let i = 0; i < SEQUENTIAL; i++) one.push(await timed(next()));
      const ten: number[] = [];
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          for (let i = 0; i < EACH; i++) ten.push(await timed(next()));
        }),
      );
      figures[name] = {
        one: { median: round(quantile(one, 0.5)), p95: round(quantile(one, 0.95)) },
        ten: { median: round(quantile(ten, 0.5)), p95: round(quantile(ten, 0.95)) },
      };
    }
    return figures;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const alone = await measure(aloneUrl);
const scale = await measure(scaleUrl);
console.log(
  "page        1 conn. median/p95 ms (alone → 10,000)   10 conn. median/p95 ms (alone → 10,000)   ratio 1/10",
);
for (const page of Object.keys(alone)) {
  const a = alone[page]!;
  const s = scale[page]!;
  console.log(
    `${page.padEnd(11)} ${`${a.one.median}/${a.one.p95} → ${s.one.median}/${s.one.p95}`.padEnd(42)}` +
      `${`${a.ten.median}/${a.ten.p95} → ${s.ten.median}/${s.ten.p95}`.padEnd(42)}` +
      `${(s.one.median / a.one.median).toFixed(2)} / ${(s.ten.median / a.ten.median).toFixed(2)}`,
  );
}
console.log(JSON.stringify({ alone, scale }));
