import { databaseRun, type SeedSummary } from "./database.ts";
import { BROWSER_ENCODINGS, SAMPLES, TERMS } from "./run.ts";
import { type Asset, sizeBudgets } from "./sizes.ts";
import { bytes, int, kib, ms } from "./stats.ts";
import { throughput } from "./throughput.ts";

// Report

export type Sizes = Awaited<ReturnType<typeof sizeBudgets>>;
export type Throughput = Awaited<ReturnType<typeof throughput>>;
export type DbRun = Awaited<ReturnType<typeof databaseRun>> & { seed: SeedSummary; serverStartMs: number };

export function table(rows: string[][], align: ("l" | "r")[]): string {
  const widths = align.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? "").length)));
  return rows
    .map(
      (row) =>
        "  " +
        row
          .map((cell, c) => (align[c] === "r" ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
          .join("   ")
          .trimEnd(),
    )
    .join("\n");
}

export function render(results: {
  machine: Record<string, unknown>;
  sizes: Sizes;
  throughput: Throughput;
  pglite: DbRun;
  postgresql: DbRun & { version: string };
  durationS: number;
}): string {
  const { sizes, throughput: rps, pglite, postgresql } = results;
  const lines: string[] = [];
  const m = results.machine;
  lines.push(
    `Polyglot benchmark, ${m.date} — Node ${m.node}, ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, load average (1/5/15 min) at start ${m.loadAverage}, CPUs busy before the start ${m.cpuBusyBeforeStartPercent ?? "?"}%`,
  );
  lines.push(`total time ${results.durationS} s`);
  const busy = m.cpuBusyBeforeStartPercent;
  if (typeof busy === "number" && busy > 25) {
    lines.push(
      `WARNING: other processes kept the CPUs ${busy}% busy in the second before the start: these numbers are not those of an idle machine`,
    );
  }
  lines.push("");
  lines.push("1. Size budgets — first load of / (browser User-Agent, Accept-Language: en, status 200, no redirect)");
  lines.push(`  ${sizes.method}.`);
  lines.push(
    `  HTML of /: ${bytes(sizes.html.rawBytes)} raw, ${bytes(sizes.html.transferredBytes)} transferred (${sizes.html.contentEncoding}), ${bytes(sizes.html.gzip9Bytes)} gzip -9`,
  );
  lines.push("");
  const jsRows = [["JavaScript", "via", "raw", "transferred", "gzip -9"]];
  for (const a of sizes.js.files)
    jsRows.push([
      a.url,
      a.via,
      int(a.rawBytes),
      `${int(a.transferredBytes)}${a.contentEncoding === "gzip" ? "" : ` (${a.contentEncoding})`}`,
      int(a.gzip9Bytes),
    ]);
  sizes.js.inlineModuleScripts.forEach((s, i) =>
    jsRows.push([
      `inline <script type=module> #${i + 1} (inside the HTML)`,
      "HTML",
      int(s.rawBytes),
      `${int(s.gzip9Bytes)}*`,
      int(s.gzip9Bytes),
    ]),
  );
  const t = sizes.js.totals;
  jsRows.push([
    `TOTAL first-load JS (${t.files} files + inline module)`,
    "",
    int(t.rawBytes),
    int(t.transferredBytes),
    int(t.gzip9Bytes),
  ]);
  lines.push(table(jsRows, ["l", "l", "r", "r", "r"]));
  lines.push(
    `  * the inline module travels inside the HTML; its own gzip -9 size is counted. Other inline scripts: ${bytes(sizes.js.otherInlineScriptBytes)} raw (in the HTML, not counted).`,
  );
  lines.push(
    `  => first-load JS: ${kib(t.transferredBytes)} transferred gzip, ${kib(t.gzip9Bytes)} gzip -9 (${kib(t.rawBytes)} raw)`,
  );
  lines.push(
    `  static imports missing from modulepreload: ${sizes.js.staticImportsNotPreloaded.length === 0 ? "none" : sizes.js.staticImportsNotPreloaded.join(", ")}`,
  );
  lines.push(
    `  lazy chunks reachable by import() (not counted): ${sizes.lazyChunks.count}, ${kib(sizes.lazyChunks.gzip9Bytes)} gzip -9 together`,
  );
  lines.push(
    `  CSS (not counted above): ${sizes.css.files.map((f) => `${f.url} ${bytes(f.transferredBytes)} transferred`).join(", ") || "none"}`,
  );
  const check = sizes.browserCheck;
  if ("skipped" in check) {
    lines.push(`  browser cross-check skipped: ${String(check.skipped)}`);
  } else {
    const extra = check.notInHtmlParse as Asset[];
    const missing = check.parsedButNotFetched as string[];
    lines.push(
      `  browser cross-check (Chromium until network idle): ${check.scripts} scripts, ${kib(Number(check.transferredBytes))} transferred gzip, ${kib(Number(check.gzip9Bytes))} gzip -9 (external files only)`,
    );
    lines.push(
      `    fetched at start-up beyond the HTML parse: ${extra.length === 0 ? "none" : extra.map((a) => `${a.url} (${int(a.transferredBytes)} B, ${a.via})`).join(", ")}`,
    );
    if (missing.length > 0) lines.push(`    listed but not fetched: ${missing.join(", ")}`);
  }
  lines.push("");
  lines.push(`2. Throughput of GET / — ${rps.method}; body ${bytes(rps.bodyBytes)}`);
  const rpsRows = [["server", "req/s", "p50", "p90", "p99", "max", "requests", "non-2xx", "errors"]];
  for (const [name, r] of [
    ["app (node server.ts)", rps.app],
    ["bare node:http, same bytes", rps.bare],
  ] as const) {
    rpsRows.push([
      name,
      int(r.requestsPerSecond),
      `${r.latencyMs.p50} ms`,
      `${r.latencyMs.p90} ms`,
      `${r.latencyMs.p99} ms`,
      `${r.latencyMs.max} ms`,
      int(r.totalRequests),
      String(r.non2xx),
      String(r.errors + r.timeouts),
    ]);
  }
  lines.push(table(rpsRows, ["l", "r", "r", "r", "r", "r", "r", "r", "r"]));
  lines.push(`  => the app serves ${(rps.appShareOfBare * 100).toFixed(1)}% of the bare server's requests per second`);
  lines.push("");
  lines.push(
    `3. Database-backed requests — ${int(TERMS)} terms of one learner; ${SAMPLES} sequential requests each after warm-up;`,
  );
  lines.push(
    `  client = around fetch() until the body is read (redirect: manual, Accept-Encoding: ${BROWSER_ENCODINGS}), server = the app's request log (Express start to finish)`,
  );
  const dbRows = [["request", "database", "n", "client p50", "client p95", "server p50", "server p95"]];
  const series: [string, keyof Awaited<ReturnType<typeof databaseRun>>][] = [
    ["GET /account/explore/member", "exploreDefault"],
    ["GET /account/explore/member?q=word&sort=alphabetical", "exploreSearch"],
    ["POST /account/review grade=good (303)", "reviewGrade"],
    ["GET /account/review?reveal=1 (finds the due term)", "reviewReveal"],
  ];
  for (const [label, key] of series) {
    for (const [db, run] of [
      ["PGlite", pglite],
      [`PostgreSQL ${postgresql.version}`, postgresql],
    ] as const) {
      const s = run[key];
      dbRows.push([
        label,
        db,
        String(s.client.n),
        ms(s.client.p50),
        ms(s.client.p95),
        ms(s.server.p50),
        ms(s.server.p95),
      ]);
    }
  }
  lines.push(table(dbRows, ["l", "l", "r", "r", "r", "r", "r"]));
  for (const [db, run] of [
    ["PGlite", pglite],
    ["PostgreSQL", postgresql],
  ] as const) {
    const notes = (["exploreDefault", "exploreSearch", "reviewGrade"] as const)
      .map((k) => run[k].stoppedEarly)
      .filter(Boolean);
    if (notes.length > 0) lines.push(`  ${db}: ${[...new Set(notes)].join("; ")}`);
  }
  lines.push(
    `  results shown: default "${pglite.exploreDefault.status}", search "${pglite.exploreSearch.status}" (PGlite); "${postgresql.exploreDefault.status}", "${postgresql.exploreSearch.status}" (PostgreSQL)`,
  );
  for (const [db, run] of [
    ["PGlite", pglite],
    ["PostgreSQL", postgresql],
  ] as const) {
    const s = run.seed;
    const stages = s.stages as Record<string, number>;
    lines.push(
      `  ${db} seed: ${int(s.insertedTerms)} terms + ${int(s.insertedExamples)} examples in ${(s.insertMs / 1000).toFixed(1)} s (open + migrate ${(s.openMs / 1000).toFixed(1)} s); ` +
        `stages ${Object.entries(stages)
          .map(([k, v]) => `${k} ${int(v)}`)
          .join(", ")}; due ${int(s.dueNow)}; app server healthy after ${(run.serverStartMs / 1000).toFixed(1)} s`,
    );
  }
  return lines.join("\n");
}
