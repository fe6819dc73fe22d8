/**
 * Performance budget and load benchmark of the production build (`npm run build` first, then `npm run bench`, which runs this file).
 *
 *   1. Size budgets: the HTML of `/` and the JavaScript a browser downloads on its first load of `/`, gzipped.
 *   2. Throughput of GET `/` (autocannon, 50 connections, 10 s) next to a bare node:http server sending the same bytes.
 *   3. Server time of the member explore page and of a review grade for a learner with 10,000 terms, on PGlite and on
 *      PostgreSQL (a throwaway server from scripts/support/postgres.ts).
 *   4. With the budgets (budgets.ts): the reader with a 5,000-word text, 10,000 terms and 20,000 known
 *      words on both, My home and Statistics beside it (reader.ts).
 *
 * Everything runs on 127.0.0.1 in temporary directories that are removed at the end, failure or not. The report is
 * printed and written to bench-results.json. Knobs for quick trials (defaults are the benchmark's):
 * BENCH_TERMS (10000), BENCH_SAMPLES (200), BENCH_DURATION_S (10), BENCH_CONNECTIONS (50), BENCH_BROWSER=0 (no Chromium).
 *
 * A subset: `npm run bench -- --only account,public` runs only those parts (core = 1–3 above, public, account, reader,
 * dictionary, overload, browser, lighthouse); `--db pglite` or `--db postgresql`, `--pages review,home`, `--runs 1` and
 * `--seconds 3` narrow the learner pages (account-pages.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { BENCH_PARTS, type BenchPart } from "./budgets.ts";
import { pgliteRun, postgresRun } from "./database.ts";
import { render, type Sizes, type Throughput } from "./report.ts";
import { cleanup, interrupted, onCleanup, progress, RESULTS_FILE, ROOT, sleep, started } from "./run.ts";
import { sizeBudgets } from "./sizes.ts";
import { throughput } from "./throughput.ts";

/** The share of CPU time not idle over `windowMs`, from /proc/stat; null where there is none. */
async function cpuBusy(windowMs: number): Promise<number | null> {
  const read = () => {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { idle, total: fields.reduce((sum, x) => sum + x, 0) };
  };
  try {
    const before = read();
    await sleep(windowMs);
    const after = read();
    const total = after.total - before.total;
    return total > 0 ? Math.round((1 - (after.idle - before.idle) / total) * 100) : null;
  } catch {
    return null;
  }
}

/** The parts to run: `--only account,public`, else all of them. */
function chosenParts(): Set<BenchPart> {
  const { values } = parseArgs({ args: process.argv.slice(2), strict: false, options: { only: { type: "string" } } });
  if (!values.only) return new Set(BENCH_PARTS);
  const parts = String(values.only).split(",");
  for (const part of parts)
    if (!(BENCH_PARTS as readonly string[]).includes(part))
      throw new Error(`--only: unknown part ${part} (parts: ${BENCH_PARTS.join(", ")})`);
  return new Set(parts as BenchPart[]);
}

async function main() {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    // The budgets and commands as docs/benchmark.md tables them: one text for the reader and the terminal.
    process.stdout.write(readFileSync(path.join(ROOT, "docs/benchmark.md"), "utf8"));
    return;
  }
  const parts = chosenParts();
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 24)
    throw new Error(`needs Node 24 (type stripping, server.ts), this is ${process.version}: run \`npm run bench\``);
  try {
    readFileSync(path.join(ROOT, "build", "server", "index.js"));
  } catch {
    throw new Error("build/server/index.js is missing: run `npm run build` first");
  }
  if (!parts.has("core")) {
    if (!(await (await import("./budgets.ts")).runBudgets(parts))) process.exitCode = 1;
    return;
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), "polyglot-bench-"));
  onCleanup(`temp dir ${tmp}`, () => rmSync(tmp, { recursive: true, force: true }));
  const machine = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? "?",
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadAverage: os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" "),
    /** How busy the CPUs were in the second before the bench started (Linux), in %: other work skews every number. */
    cpuBusyBeforeStartPercent: await cpuBusy(1_000),
  };

  let sizes: Sizes | undefined;
  let rps: Throughput | undefined;
  const pglite = await pgliteRun(tmp, async (server) => {
    progress("size budgets of /");
    sizes = await sizeBudgets(server.baseUrl);
    rps = await throughput(tmp, server.baseUrl);
  });
  const postgresql = await postgresRun(tmp);
  if (!sizes || !rps) throw new Error("the front-end measurements did not run");

  machine.loadAverage += ` (at the end ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")})`;
  const results = {
    machine,
    durationS: Math.round((performance.now() - started) / 100) / 10,
    sizes,
    throughput: rps,
    pglite,
    postgresql,
  };
  const report = render(results);
  writeFileSync(RESULTS_FILE, JSON.stringify({ ...results, report: report.split("\n") }, null, 2) + "\n");
  console.log(report);
  console.log(`\n(written to ${path.relative(process.cwd(), RESULTS_FILE) || RESULTS_FILE})`);
  // The issue-8 budgets (budgets.ts): a missed one fails the command.
  if (process.env.BENCH_BUDGETS !== "0" && !(await (await import("./budgets.ts")).runBudgets(parts)))
    process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  if (!interrupted)
    console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
