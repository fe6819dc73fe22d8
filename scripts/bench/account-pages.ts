/**
 * Every page a signed-in learner uses, and its `.data` for client navigation, under load with 20 learners at once
 * (1,000 terms and ~20,000 review-log rows each, learners.ts) and grades mixed in, on PGlite and on PostgreSQL, side by
 * side with bare node:http sending the bytes of `/` in the same run; then the review loop as a browser without
 * JavaScript does it (review-loop.ts).
 *
 *   node scripts/bench/account-pages.ts [--db pglite,postgresql,pooler] [--pages review,home] [--runs 3] [--seconds 3]
 *     (after `npm run build`; also run by `npm run bench`; BENCH_CPU_PROF=dir writes the server's CPU profiles there)
 *
 * Budget (issue 24): each page ≥ 1.2 % of bare req/s, p99 ≤ 500 ms at 50 connections, no errors, median of 3 runs.
 * Each connection is one learner's browser (connection i is learner i mod 20): nine GETs of the page, then a grade of
 * one of its terms (POST, 303), so about one request in ten writes. req/s counts the page's answers (200) only; p99 is
 * over every request, grades included.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startPostgres, type PostgresServer } from "../support/postgres.ts";
import {
  DATABASE_NAMES,
  getPatiently,
  learnerServer,
  LEARNERS,
  setModes,
  settle,
  type Database,
  type Learner,
} from "./learners.ts";
import { get, load, stopChild } from "./public-pages.ts";
import { reviewLoop, REVIEW_LOOP_BUDGET, warmUp, type ReviewLoopRow } from "./review-loop.ts";
import { onCleanup } from "./run.ts";
import { startBareServer } from "./throughput.ts";
import { loadClient } from "./load-client.ts";
import { median } from "./stats.ts";

export const ACCOUNT_BUDGET = { shareOfBare: 0.012, p99Ms: 500 };
export { DATABASE_NAMES };
// 50 for the budget; fewer (BENCH_ACCOUNT_CONNECTIONS=4) measures the CPU of an answer with nothing waiting or refused.
const CONNECTIONS = Number(process.env.BENCH_ACCOUNT_CONNECTIONS ?? 50);
const MODES = ["forward", "reverse", "typed", "cloze"] as const;

type Autocannon = (options: object) => Promise<{
  latency: { p99: number };
  duration: number;
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
}>;
const autocannon: Autocannon = loadClient();

/** The options of a run: `npm run bench -- --db postgresql --pages review` as well as the environment variables. */
export function accountOptions(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: {
      db: { type: "string" },
      pages: { type: "string" },
      runs: { type: "string" },
      seconds: { type: "string" },
      warmup: { type: "string" },
    },
  });
  const db = String(values.db ?? process.env.BENCH_ACCOUNT_DATABASES ?? "pglite,postgresql")
    .split(",")
    .map((name) => (name === "postgres" ? "postgresql" : name));
  for (const name of db)
    if (!(name in DATABASE_NAMES)) throw new Error(`--db: unknown database ${name} (pglite, postgresql, pooler)`);
  return {
    databases: db as Database[],
    /** Pages whose label contains one of these words (all when empty). */
    pages: values.pages ? String(values.pages).split(",") : [],
    runs: Number(values.runs ?? process.env.BENCH_ACCOUNT_RUNS ?? 3),
    seconds: Number(values.seconds ?? process.env.BENCH_ACCOUNT_SECONDS ?? 4),
    /** Seconds of the review loop run unmeasured before its runs (review-loop.ts, `warmUp`). */
    warmup: Number(values.warmup ?? process.env.BENCH_LOOP_WARMUP ?? 20),
  };
}
export type AccountOptions = ReturnType<typeof accountOptions>;

/** The sign-in flow of the form (kept here: the overload bench signs in with it too). */
export { signIn } from "./sign-in.ts";

type Page = {
  label: string;
  /** The URL of this page for a learner. */
  path: (learner: Learner) => string;
  /** Review modes to set before this page (the review pages, one row per mode). */
  mode?: (typeof MODES)[number];
};

const data = (pathAndQuery: string) => {
  const [pathname, query] = pathAndQuery.split("?");
  return `${pathname}.data${query ? `?${query}` : ""}`;
};

function pages(): Page[] {
  const documents: Page[] = [
    { label: "/account/home", path: () => "/account/home" },
    ...MODES.flatMap((mode): Page[] => [
      { label: `/account/review (${mode}, front)`, path: () => "/account/review", mode },
      {
        label: `/account/review?reveal=1 (${mode}, back)`,
        path: () => (mode === "typed" ? "/account/review?reveal=1&answer=ab" : "/account/review?reveal=1"),
        mode,
      },
    ]),
    { label: "/account/statistics", path: () => "/account/statistics" },
    { label: "/account/texts", path: () => "/account/texts" },
    {
      label: "/account/texts/:id?word=3 (reader, a word open)",
      path: (l) => `/account/texts/${l.textId}?page=1&word=3`,
    },
    { label: "/account/terms/:id", path: (l) => `/account/terms/${l.termIds[0]}` },
    { label: "/account/explore/public", path: () => "/account/explore/public" },
    { label: "/account/explore/member", path: () => "/account/explore/member" },
    { label: "/explore (signed in)", path: () => "/explore" },
    { label: "/account/player", path: () => "/account/player" },
    { label: "/account/settings", path: () => "/account/settings" },
    { label: "/account/profile", path: () => "/account/profile" },
    { label: "/account/billing", path: () => "/account/billing" },
    { label: "/account/import", path: () => "/account/import" },
    { label: "/account/export", path: () => "/account/export" },
  ];
  // Each page's `.data` (client navigation) after the documents; the review's in the default mode only.
  return [
    ...documents,
    ...documents
      .filter((page) => !page.mode || page.mode === "forward")
      .map((page) => ({
        ...page,
        label: page.label.replace(/^(\/[^?( ]*)/, "$1.data").replace(" (forward, ", " ("),
        path: (learner: Learner) => data(page.path(learner)),
      })),
  ];
}

const GRADES = ["again", "good", "again", "hard"];
const BROWSER = {
  "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36",
  Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "Accept-Language": "en",
  "Accept-Encoding": "gzip, deflate, br",
};

/**
 * The CPU time a process has used so far, in ms (Linux; 0 elsewhere): all its threads, and its main thread alone (the
 * one that reads sockets and renders pages; PGlite answers on a thread of its own).
 */
type Cpu = { all: number; main: number };
function cpuMs(pid: number | undefined): Cpu {
  const read = (file: string) => {
    const fields = readFileSync(file, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in ticks of 1/100 s
  };
  try {
    return { all: read(`/proc/${pid}/stat`), main: read(`/proc/${pid}/task/${pid}/stat`) };
  } catch {
    return { all: 0, main: 0 };
  }
}
/** CPU ms per answer between two readings. */
const cpuPer = (before: Cpu, after: Cpu, answers: number): Cpu =>
  answers > 0
    ? { all: (after.all - before.all) / answers, main: (after.main - before.main) / answers }
    : { all: 0, main: 0 };
const cpuText = (cpu: Cpu) => `${cpu.all.toFixed(1)} ms (main ${cpu.main.toFixed(1)})`;

/** One run of one page: 50 connections, each a learner reading the page nine times, then grading one of their terms. */
async function pageRun(baseUrl: string, learners: Learner[], page: Page, seconds: number, pid?: number) {
  let client = 0;
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    setupClient: (c: { setRequests(requests: object[]): void }) => {
      const index = client++;
      const learner = learners[index % learners.length]!;
      const headers = { ...BROWSER, Cookie: learner.cookie };
      let grades = 0;
      const read = { method: "GET", path: page.path(learner), headers };
      const grade = {
        method: "POST",
        path: "/account/review",
        headers: { ...headers, Origin: baseUrl, "Content-Type": "application/x-www-form-urlencoded" },
        setupRequest: (request: object) => {
          const n = grades++;
          const termId = learner.termIds[n % learner.termIds.length]!;
          return { ...request, body: new URLSearchParams({ termId, grade: GRADES[n % GRADES.length]! }).toString() };
        },
      };
      // Each connection starts at another place of its round of ten, so grades come from the first second of a run
      // even when a connection gets through only a few requests in it.
      const round: object[] = [...Array.from({ length: 9 }, () => read), grade];
      c.setRequests([...round.slice(index % 10), ...round.slice(0, index % 10)]);
    },
  });
  const counts = result.statusCodeStats;
  const ok = counts["200"]?.count ?? 0;
  const graded = counts["303"]?.count ?? 0;
  const total = Object.values(counts).reduce((sum, s) => sum + s.count, 0);
  const shed = counts["503"]?.count ?? 0;
  return {
    /**
     * The server's CPU time per answer (page or grade; refusals cost CPU but are no answer): unlike req/s, other work
     * on the machine hardly changes it (what is still in flight at the end of the run is counted in the next one).
     */
    cpuPerRequest: cpuPer(cpuBefore, cpuMs(pid), ok + graded),
    rps: Math.round(ok / result.duration),
    p99: result.latency.p99,
    grades: graded,
    /** Refused by load shedding (503): errors too, counted apart. */
    shed,
    errors: total - ok - graded + result.errors + result.timeouts,
  };
}

export type AccountRow = {
  database: Database;
  page: string;
  /** Medians over the runs. */
  rps: number;
  share: number;
  p99: number;
  grades: number;
  shed: number;
  errors: number;
  /** The server's CPU ms per answer, all threads and the main one (median over the runs). */
  cpuPerRequest: Cpu;
  ok: boolean;
};
export type AccountRun = {
  database: Database;
  bare: number;
  runs: number;
  seconds: number;
  rows: AccountRow[];
  review: ReviewLoopRow;
};

async function measure(
  database: Database,
  tmp: string,
  postgres: () => Promise<PostgresServer>,
  options: AccountOptions,
): Promise<AccountRun> {
  const log = (message: string) => console.error(`[account] ${message}`);
  const server = await learnerServer(database, tmp, postgres, log);
  try {
    const { baseUrl, learners } = server;
    const chosen = pages().filter(
      (page) => options.pages.length === 0 || options.pages.some((word) => page.label.includes(word)),
    );
    const sample = await get(`${baseUrl}/`);
    const bareServer = await startBareServer(tmp, sample.body, {
      "content-type": "text/html; charset=utf-8",
      "content-encoding": String(sample.headers["content-encoding"] ?? "identity"),
    });
    const bare: number[] = [];
    const samples = new Map<string, Awaited<ReturnType<typeof pageRun>>[]>();
    try {
      for (let run = 1; run <= options.runs; run++) {
        bare.push((await load(bareServer.url)).rps);
        log(`${DATABASE_NAMES[database]} run ${run}/${options.runs}: bare node:http ${bare.at(-1)} req/s`);
        let mode: string | undefined = "none";
        for (const page of chosen) {
          await settle(baseUrl, learners[0]!);
          if ((page.mode ?? "forward") !== mode) {
            mode = page.mode ?? "forward";
            await setModes(baseUrl, learners, () => [mode!]);
          }
          const url = page.path(learners[0]!);
          for (const learner of learners) {
            const check = await getPatiently(baseUrl + page.path(learner), { Cookie: learner.cookie });
            if (check.status !== 200) throw new Error(`${url} answered ${check.status} on ${database}`);
          }
          // A short warm-up of this page on the first run (JIT, the learners' first visits).
          if (run === 1) await pageRun(baseUrl, learners, page, 1);
          const result = await pageRun(baseUrl, learners, page, options.seconds, server.child.pid);
          samples.set(page.label, [...(samples.get(page.label) ?? []), result]);
          log(
            `  ${page.label}: ${result.rps} req/s, p99 ${result.p99} ms, ${cpuText(result.cpuPerRequest)} CPU/answer, ${result.grades} grades, ${result.errors} errors (${result.shed} × 503)`,
          );
        }
      }
    } finally {
      await bareServer.stop();
    }
    const bareRps = median(bare);
    const rows = chosen.map((page): AccountRow => {
      const runs = samples.get(page.label)!;
      const rps = median(runs.map((r) => r.rps));
      const p99 = median(runs.map((r) => r.p99));
      const cpuPerRequest = {
        all: median(runs.map((r) => r.cpuPerRequest.all)),
        main: median(runs.map((r) => r.cpuPerRequest.main)),
      };
      const errors = runs.reduce((sum, r) => sum + r.errors, 0);
      const share = rps / bareRps;
      return {
        database,
        page: page.label,
        rps,
        share,
        p99,
        grades: runs.reduce((sum, r) => sum + r.grades, 0),
        shed: runs.reduce((sum, r) => sum + r.shed, 0),
        errors,
        cpuPerRequest,
        ok: share >= ACCOUNT_BUDGET.shareOfBare && p99 <= ACCOUNT_BUDGET.p99Ms && errors === 0,
      };
    });
    // The review loop in every mode at once: learner i reviews in mode i mod 4.
    await settle(baseUrl, learners[0]!);
    await setModes(baseUrl, learners, (i) => [MODES[i % MODES.length]!]);
    await warmUp(baseUrl, learners, options.warmup, log);
    const cpuBefore = cpuMs(server.child.pid);
    const poolerBefore = cpuMs(server.poolerPid);
    const clientBefore = process.cpuUsage();
    const review = await reviewLoop(baseUrl, learners, options, log);
    const clientCpu = process.cpuUsage(clientBefore);
    if (server.poolerPid)
      log(
        `  review loop: PgBouncer took ${cpuPer(poolerBefore, cpuMs(server.poolerPid), review.reviews).all.toFixed(2)} ms of CPU per review`,
      );
    // The load client runs on the same cores: what it takes, the server does not get.
    log(
      `  review loop: the load client took ${((clientCpu.user + clientCpu.system) / 1000 / review.reviews).toFixed(1)} ms of CPU per review`,
    );
    review.cpuPerReview = cpuPer(cpuBefore, cpuMs(server.child.pid), review.reviews);
    return { database, bare: bareRps, runs: options.runs, seconds: options.seconds, rows, review };
  } finally {
    await stopChild(server.child);
  }
}

/** The chosen databases, one after the other; bare node:http is measured again in each run. */
export async function accountPagesBench(options = accountOptions()): Promise<AccountRun[]> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "polyglot-bench-account-"));
  const unregister = onCleanup(`temp dir ${tmp}`, () => rmSync(tmp, { recursive: true, force: true }));
  let postgres: Promise<PostgresServer> | undefined;
  try {
    const runs: AccountRun[] = [];
    for (const database of options.databases) {
      const dir = path.join(tmp, database);
      mkdirSync(dir);
      runs.push(await measure(database, dir, () => (postgres ??= startPostgres()), options));
    }
    return runs;
  } finally {
    await (await postgres?.catch(() => null))?.stop();
    rmSync(tmp, { recursive: true, force: true });
    unregister();
  }
}

export function accountPagesTable(runs: AccountRun[]): string {
  const lines: string[] = [];
  for (const run of runs) {
    lines.push(
      `${DATABASE_NAMES[run.database]}: ${LEARNERS} learners, ${CONNECTIONS} connections, 1 grade per 9 reads, median of ${run.runs} × ${run.seconds} s; bare node:http ${run.bare} req/s`,
      `| page | req/s | % of bare | p99 | server CPU per answer | grades | errors (503) | budget (≥ ${ACCOUNT_BUDGET.shareOfBare * 100} %, p99 ≤ ${ACCOUNT_BUDGET.p99Ms} ms) |`,
      "|---|---:|---:|---:|---:|---:|---:|---|",
    );
    for (const row of run.rows) {
      lines.push(
        `| ${row.page} | ${row.rps} | ${(row.share * 100).toFixed(2)} % | ${row.rps === 0 ? `> ${run.seconds} s (none answered in a run)` : `${row.p99} ms`} | ${cpuText(row.cpuPerRequest)} | ${row.grades} | ${row.errors} (${row.shed}) | ${row.ok ? "met" : "MISSED"} |`,
      );
    }
    const r = run.review;
    lines.push(
      `| review loop (GET card, GET revealed, POST grade, redirect) | ${r.reviewsPerSecond} reviews/s | | ${r.p99} ms per review | ${r.cpuPerReview ? cpuText(r.cpuPerReview) : "–"} per review | ${r.reviews} | ${r.errors} | ≥ ${REVIEW_LOOP_BUDGET.reviewsPerSecond}/s, p99 ≤ ${REVIEW_LOOP_BUDGET.p99Ms} ms: ${r.ok ? "met" : "MISSED"} |`,
      "",
    );
  }
  return lines.join("\n").trimEnd();
}

export const accountRowsOk = (runs: AccountRun[]) => runs.every((run) => run.review.ok && run.rows.every((r) => r.ok));

if (import.meta.main) {
  const runs = await accountPagesBench();
  console.log(accountPagesTable(runs));
  if (!accountRowsOk(runs)) process.exitCode = 1;
}
