/**
 * The issue-8 budgets measured side by side with bare node:http (public pages, account pages on PGlite and PostgreSQL)
 * and in Chromium (first-load JS, first paint and hydration on a slow link, basic mode, Lighthouse's mobile score of
 * every public page), printed as tables; resolves false when a budget is missed. Run by `npm run bench` after its own
 * report; BENCH_BROWSER=0 leaves out the browser (Lighthouse too), BENCH_LIGHTHOUSE=0 only Lighthouse, BENCH_OVERLOAD=0
 * the overload run (issue 24: many connections on the heaviest signed-in page and on /account/home).
 */
import { accountPagesBench, accountPagesTable, accountRowsOk, type AccountRun } from "./account-pages.ts";
import { browserBench, browserTable, type BrowserRow } from "./browser.ts";
import { DICTIONARY_TITLE, dictionaryBench, dictionaryTable, type DictionaryRow } from "./dictionary-speed.ts";
import { lighthouseBench, lighthouseTable, type LighthouseRow } from "./lighthouse.ts";
import { OVERLOAD_BUDGET, overloadBench, overloadTable, type OverloadRow } from "./overload.ts";
import { publicPagesBench, publicPagesTable } from "./public-pages.ts";
import { READER_P95_MS, readerBench, readerTable } from "./reader.ts";

export const BENCH_PARTS = [
  "core",
  "public",
  "account",
  "reader",
  "dictionary",
  "overload",
  "browser",
  "lighthouse",
] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

export async function runBudgets(parts: Set<BenchPart> = new Set(BENCH_PARTS)): Promise<boolean> {
  let publicPages: Awaited<ReturnType<typeof publicPagesBench>> = { bare: { rps: 0, p99: 0 }, rows: [] };
  if (parts.has("public")) {
    publicPages = await publicPagesBench();
    console.log("\nPublic pages (budget: ≥ 50 % of bare, p99 ≤ 20 ms, 0 errors)");
    console.log(publicPagesTable(publicPages));
  }
  let account: AccountRun[] = [];
  if (parts.has("account")) {
    account = await accountPagesBench();
    console.log(
      "\nLearner pages and the review loop (budget: ≥ 1.2 % of bare, p99 ≤ 500 ms; 100 reviews/s, p99 ≤ 600 ms)",
    );
    console.log(accountPagesTable(account));
  }
  let reader: Awaited<ReturnType<typeof readerBench>> = [];
  if (parts.has("reader")) {
    reader = await readerBench();
    console.log(
      `\nReader, a 5,000-word text, 10,000 terms and 20,000 known words (budget: server p95 < ${READER_P95_MS} ms; the pages counting known words as the learner pages')`,
    );
    console.log(readerTable(reader));
  }
  let dictionary: DictionaryRow[] = [];
  if (parts.has("dictionary")) {
    dictionary = await dictionaryBench();
    console.log(`\n${DICTIONARY_TITLE}`);
    console.log(dictionaryTable(dictionary));
  }
  let overload: OverloadRow[] = [];
  if (!parts.has("overload")) {
    // not chosen
  } else if (process.env.BENCH_OVERLOAD === "0") console.log("\nOverload: skipped (BENCH_OVERLOAD=0)");
  else {
    overload = await overloadBench();
    console.log(
      `\nOverload, PGlite, 1,000 terms and 20,000 review-log rows (budget: p99 ≤ ${OVERLOAD_BUDGET.p99Ms} ms, no request ≥ ${OVERLOAD_BUDGET.maxMs / 1000} s, only 200 and 503, RSS ≤ +${OVERLOAD_BUDGET.rssGrowth * 100} %)`,
    );
    console.log(overloadTable(overload));
  }
  let browser: BrowserRow[] = [];
  if (!parts.has("browser")) {
    // not chosen
  } else if (process.env.BENCH_BROWSER === "0") console.log("\nBrowser: skipped (BENCH_BROWSER=0)");
  else {
    browser = await browserBench();
    console.log("\nBrowser, Chromium (slow link: 400 kbit/s, 400 ms latency, cold cache)");
    console.log(browserTable(browser));
  }
  let scores: LighthouseRow[] = [];
  if (!parts.has("lighthouse")) {
    // not chosen
  } else if (process.env.BENCH_LIGHTHOUSE === "0" || process.env.BENCH_BROWSER === "0")
    console.log("\nLighthouse: skipped (BENCH_LIGHTHOUSE=0 or BENCH_BROWSER=0)");
  else {
    scores = await lighthouseBench();
    console.log("\nLighthouse, mobile (simulated slow 4G, 4x CPU slowdown), performance and accessibility");
    console.log(lighthouseTable(scores));
  }
  const rows = [
    ...publicPages.rows,
    ...account.flatMap((run) => run.rows),
    { ok: accountRowsOk(account) },
    ...reader,
    ...dictionary,
    ...overload,
    ...browser,
    ...scores,
  ];
  return rows.every((row) => row.ok);
}
