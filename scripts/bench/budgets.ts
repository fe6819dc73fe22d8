/**
 * The issue-8 budgets measured side by side with bare node:http (public pages, account pages on PGlite) and in Chromium
 * (first-load JS, first paint and hydration on a slow link, basic mode), printed as tables; resolves false when a budget
 * is missed. Run by `npm run bench` after its own report; BENCH_BROWSER=0 leaves out the browser.
 */
import { accountPagesBench, ACCOUNT_BUDGET } from "./account-pages.ts";
import { browserBench, browserTable, type BrowserRow } from "./browser.ts";
import { publicPagesBench, publicPagesTable } from "./public-pages.ts";
import { READER_P95_MS, readerBench, readerTable } from "./reader.ts";

export async function runBudgets(): Promise<boolean> {
  const publicPages = await publicPagesBench();
  console.log("\nPublic pages (budget: ≥ 50 % of bare, p99 ≤ 20 ms, 0 errors)");
  console.log(publicPagesTable(publicPages));
  const account = await accountPagesBench();
  console.log(`\nAccount pages, PGlite, 1,000 terms (bare node:http ${account.bare.rps} req/s in this run)`);
  console.log("| page | req/s | share of bare | p99 | errors | budget |\n|---|---:|---:|---:|---:|---|");
  for (const row of account.rows) {
    console.log(
      `| ${row.page} | ${row.rps} | ${(row.share * 100).toFixed(2)} % | ${row.p99} ms | ${row.errors} | ≥ ${ACCOUNT_BUDGET[row.page]! * 100} %, p99 ≤ 300 ms: ${row.ok ? "met" : "MISSED"} |`,
    );
  }
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
  return [...publicPages.rows, ...account.rows, ...reader, ...browser].every((row) => row.ok);
}
