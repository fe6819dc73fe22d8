/**
 * The issue-8 budgets measured side by side with bare node:http (public pages, account pages on PGlite and PostgreSQL)
 * and in Chromium (first-load JS, first paint and hydration on a slow link, basic mode, Lighthouse's mobile score of
 * every public page), printed as tables; resolves false when a budget is missed. Run by `npm run bench` after its own
 * report; BENCH_BROWSER=0 leaves out the browser (Lighthouse too), BENCH_LIGHTHOUSE=0 only Lighthouse.
 */
import { accountPagesBench, accountPagesTable } from "./account-pages.ts";
import { browserBench, browserTable, type BrowserRow } from "./browser.ts";
import { lighthouseBench, lighthouseTable, type LighthouseRow } from "./lighthouse.ts";
import { publicPagesBench, publicPagesTable } from "./public-pages.ts";
import { READER_P95_MS, readerBench, readerTable } from "./reader.ts";

export async function runBudgets(): Promise<boolean> {
  const publicPages = await publicPagesBench();
  console.log("\nPublic pages (budget: ≥ 50 % of bare, p99 ≤ 20 ms, 0 errors)");
  console.log(publicPagesTable(publicPages));
  const account = await accountPagesBench();
  console.log("\nAccount pages, 1,000 terms, on PGlite and PostgreSQL (bare node:http measured beside each)");
  console.log(accountPagesTable(account));
  const reader = await readerBench();
  console.log(`\nReader, a 5,000-word text, 10,000 terms (budget: server p95 < ${READER_P95_MS} ms)`);
  console.log(readerTable(reader));
  let browser: BrowserRow[] = [];
  if (process.env.BENCH_BROWSER === "0") console.log("\nBrowser: skipped (BENCH_BROWSER=0)");
  else {
    browser = await browserBench();
    console.log("\nBrowser, Chromium (slow link: 400 kbit/s, 400 ms latency, cold cache)");
    console.log(browserTable(browser));
  }
  let scores: LighthouseRow[] = [];
  if (process.env.BENCH_LIGHTHOUSE === "0" || process.env.BENCH_BROWSER === "0")
    console.log("\nLighthouse: skipped (BENCH_LIGHTHOUSE=0 or BENCH_BROWSER=0)");
  else {
    scores = await lighthouseBench();
    console.log("\nLighthouse, mobile (simulated slow 4G, 4x CPU slowdown), performance");
    console.log(lighthouseTable(scores));
  }
  const rows = [...publicPages.rows, ...account.flatMap((run) => run.rows), ...reader, ...browser, ...scores];
  return rows.every((row) => row.ok);
}
