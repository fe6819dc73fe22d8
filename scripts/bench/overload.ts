/**
 * Overload: a learner with 1,000 terms and ~20,000 review-log rows, and many connections at once on their heaviest
 * page and on `/account/home` (PGlite). Reports req/s, p50/p99/max latency, status counts, timeouts (10 s) and the
 * server's RSS at the start and at the end of each run.
 *
 *   node scripts/bench/overload.ts          (after `npm run build`; also run by `npm run bench` unless BENCH_OVERLOAD=0)
 *
 * Budget (issue 24): no request waits 10 s, p99 ≤ 2 s, only 200 and 503 answers, RSS within 20 % of its start.
 * Knobs: BENCH_OVERLOAD_CONNECTIONS (200), BENCH_OVERLOAD_SECONDS (15), BENCH_OVERLOAD_PAGES (comma-separated),
 * BENCH_OVERLOAD_REVIEWS (20000), BENCH_OVERLOAD_TERMS (1000), and MAX_REQUESTS_IN_FLIGHT for the server.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BROWSER_USER_AGENT } from "../support/app-process.ts";
import { signIn } from "./account-pages.ts";
import { get, startServer, stopChild } from "./public-pages.ts";
import { loadClient } from "./load-client.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const EMAIL = "bench.overload@example.test";
const CONNECTIONS = Number(process.env.BENCH_OVERLOAD_CONNECTIONS ?? 200);
const SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 15);
const TERMS = Number(process.env.BENCH_OVERLOAD_TERMS ?? 1_000);
const REVIEWS = Number(process.env.BENCH_OVERLOAD_REVIEWS ?? 20_000);
// The statistics' data is drawn on every request (a learner's page kept in memory is not; `.data` never is).
const PAGES = (process.env.BENCH_OVERLOAD_PAGES ?? "/account/statistics.data,/account/home").split(",");
const TIMEOUT_S = 10;
export const OVERLOAD_BUDGET = { p99Ms: 2_000, maxMs: TIMEOUT_S * 1000, rssGrowth: 0.2 };

type Autocannon = (options: object) => Promise<{
  requests: { average: number };
  latency: { p50: number; p99: number; max: number };
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
}>;
const autocannon: Autocannon = loadClient();

function seed(dataDir: string): Promise<void> {
  const args = ["scripts/seed-terms.ts", EMAIL, "--count", String(TERMS), "--reviews", String(REVIEWS)];
  const child = spawn(process.execPath, [...args, "--seed", "20261127", "--json"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`seed exited with ${code}`)))),
  );
}

const rssMiB = (pid: number) => {
  const kib = Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
  return Math.round(kib / 1024);
};

export type OverloadRow = {
  page: string;
  connections: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  timeouts: number;
  errors: number;
  rssStartMiB: number;
  rssEndMiB: number;
  ok: boolean;
};

export async function overloadBench(): Promise<OverloadRow[]> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "polyglot-bench-overload-"));
  const children: ChildProcess[] = [];
  try {
    await seed(path.join(tmp, "data"));
    const server = await startServer(tmp);
    children.push(server.child);
    const cookie = await signIn(server.baseUrl, path.join(tmp, "server.log"), EMAIL);
    const rows: OverloadRow[] = [];
    for (const page of PAGES) {
      const check = await get(server.baseUrl + page, { Cookie: cookie });
      if (check.status !== 200) throw new Error(`${page} answered ${check.status}`);
      const headers = {
        Cookie: cookie,
        "User-Agent": BROWSER_USER_AGENT,
        Accept: "text/html,application/xhtml+xml",
        "Accept-Encoding": "gzip, deflate, br",
      };
      const url = server.baseUrl + page;
      await autocannon({ url, connections: 5, duration: 2, headers });
      const rssStartMiB = rssMiB(server.child.pid!);
      const result = await autocannon({
        url,
        connections: CONNECTIONS,
        duration: SECONDS,
        timeout: TIMEOUT_S,
        headers,
      });
      const rssEndMiB = rssMiB(server.child.pid!);
      const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
      const onlyExpected = Object.keys(statuses).every((code) => code === "200" || code === "503");
      rows.push({
        page,
        connections: CONNECTIONS,
        seconds: SECONDS,
        rps: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        statuses,
        timeouts: result.timeouts,
        errors: result.errors,
        rssStartMiB,
        rssEndMiB,
        ok:
          onlyExpected &&
          result.timeouts === 0 &&
          result.latency.p99 <= OVERLOAD_BUDGET.p99Ms &&
          result.latency.max < OVERLOAD_BUDGET.maxMs &&
          rssEndMiB <= rssStartMiB * (1 + OVERLOAD_BUDGET.rssGrowth),
      });
    }
    return rows;
  } finally {
    await Promise.all(children.map(stopChild));
    rmSync(tmp, { recursive: true, force: true });
  }
}

export function overloadTable(rows: OverloadRow[]): string {
  const lines = [
    `| page | connections × s | req/s | p50 | p99 | max | statuses | timeouts (${TIMEOUT_S} s) | RSS start → end | budget (p99 ≤ ${OVERLOAD_BUDGET.p99Ms} ms, max < ${OVERLOAD_BUDGET.maxMs / 1000} s, 200/503 only, RSS ≤ +${OVERLOAD_BUDGET.rssGrowth * 100} %) |`,
    "|---|---:|---:|---:|---:|---:|---|---:|---:|---|",
  ];
  for (const row of rows) {
    const statuses = Object.entries(row.statuses)
      .map(([code, count]) => `${code}: ${count}`)
      .join(", ");
    lines.push(
      `| ${row.page} | ${row.connections} × ${row.seconds} | ${row.rps} | ${row.p50} ms | ${row.p99} ms | ${row.max} ms | ${statuses} | ${row.timeouts} | ${row.rssStartMiB} → ${row.rssEndMiB} MiB | ${row.ok ? "met" : "MISSED"} |`,
    );
  }
  return lines.join("\n");
}

if (import.meta.main) {
  const rows = await overloadBench();
  console.log(`Overload, PGlite, ${TERMS} terms and ${REVIEWS} review-log rows, autocannon (timeout ${TIMEOUT_S} s)`);
  console.log(overloadTable(rows));
  if (rows.some((row) => !row.ok)) process.exitCode = 1;
}
