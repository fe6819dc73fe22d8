/**
 * The reader with a long text (issue 12, point 7; issue 54): a learner with 10,000 terms and 20,000 known words reads a
 * 5,000-word text whose words are partly their terms (a few multi-word ones among them), partly their known words and
 * partly new, on PGlite and on PostgreSQL. Server time from the request log, p95 over BENCH_SAMPLES requests after a
 * warm-up; budget: p95 < 150 ms for the reader page, with and without a panel. The pages that count the known words
 * (My home's total, Statistics) are measured for the same learner within the learner pages' p99 (account-pages.ts).
 *
 *   node scripts/bench/reader.ts      (after `npm run build`; also part of `npm run bench`'s budgets)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPostgres } from "../support/postgres.ts";
import { type AppServer, startApp } from "./app-server.ts";
import { getSeries, seed, serverTimes, signIn } from "./database.ts";
import { knownWordList } from "../seed/known-words.ts";
import { ACCOUNT_BUDGET } from "./account-pages.ts";
import { type CookieJar, request } from "./http.ts";
import {
  BASE_HEADERS,
  cleanup,
  EMAIL,
  KNOWN_WORDS,
  onCleanup,
  progress,
  SEED,
  SERIES_CAP_MS,
  sleep,
  TERMS,
} from "./run.ts";
import { ms, type Stats, stats } from "./stats.ts";

export const READER_P95_MS = 150;
const TEXT_WORDS = 5_000;
/** Words marked known one at a time, each followed by the page. */
const MARKS = 40;

/** A seeded pseudo-random generator (mulberry32): the same text on every run. */
export function random(seedValue: number) {
  let a = seedValue;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Term texts of the learner, read from the member explore pages as a browser would see them. */
async function someTerms(server: AppServer, jar: CookieJar): Promise<string[]> {
  const texts: string[] = [];
  for (let page = 1; page <= 6; page++) {
    const reply = await request(server.baseUrl, `/account/explore/member?sort=alphabetical&page=${page}`, { jar });
    for (const m of reply.body.matchAll(/<a [^>]*href="\/account\/terms\/[0-9a-f-]{36}"[^>]*>([^<]+)<\/a>/g))
      texts.push(m[1]!);
  }
  if (texts.length < 50) throw new Error(`found only ${texts.length} terms on the member explore pages`);
  return texts;
}

/**
 * About 5,000 words in sentences and paragraphs: two in five from the learner's terms, two in five from their known
 * words, the rest new.
 */
function longText(terms: string[], known: string[]): string {
  const next = random(SEED);
  const fresh = "quorvish blenting spradel thumbery glinnock wuzzle frandish".split(" ");
  const paragraphs: string[] = [];
  let words = 0;
  while (words < TEXT_WORDS) {
    const sentences: string[] = [];
    for (let s = 0; s < 5; s++) {
      const parts: string[] = [];
      const length = 8 + Math.floor(next() * 10);
      for (let w = 0; w < length; w++) {
        const roll = next();
        const from = roll < 0.4 ? terms : roll < 0.8 ? known : fresh;
        parts.push(from[Math.floor(next() * from.length)]!);
      }
      words += parts.join(" ").split(" ").length;
      const sentence = parts.join(" ");
      sentences.push(sentence[0]!.toUpperCase() + sentence.slice(1) + (next() < 0.2 ? "," : "."));
    }
    paragraphs.push(sentences.join(" ").replace(/,$/, "."));
  }
  return paragraphs.join("\n\n");
}

export async function addText(server: AppServer, jar: CookieJar, title: string, body: string): Promise<string> {
  const form = new FormData();
  form.append("title", title);
  form.append("body", body);
  const response = await fetch(`${server.baseUrl}/account/texts/new`, {
    method: "POST",
    headers: { ...BASE_HEADERS, Cookie: jar.header(), Origin: server.baseUrl },
    body: form,
    redirect: "manual",
  });
  const location = response.headers.get("location");
  await response.text();
  if (response.status !== 302 || !location) throw new Error(`POST /account/texts/new answered ${response.status}`);
  return location;
}

export type ReaderRow = {
  database: string;
  page: string;
  p50: number;
  p95: number;
  p99: number;
  n: number;
  budget: string;
  ok: boolean;
};

async function measure(server: AppServer, database: string): Promise<ReaderRow[]> {
  const jar = await signIn(server, EMAIL);
  const body = longText(await someTerms(server, jar), knownWordList(KNOWN_WORDS, SEED));
  const words = body.split(/\s+/).length;
  const textPath = await addText(server, jar, "Bench: a long text", body);
  progress(`${database}: a text of ${words} words at ${textPath}`);
  const rows: ReaderRow[] = [];
  const row = (label: string, times: Stats, reader: boolean): ReaderRow => ({
    database,
    page: label,
    p50: times.p50,
    p95: times.p95,
    p99: times.p99,
    n: times.n,
    budget: reader ? `p95 < ${READER_P95_MS} ms` : `p99 ≤ ${ACCOUNT_BUDGET.p99Ms} ms`,
    ok: reader ? times.p95 < READER_P95_MS : times.p99 <= ACCOUNT_BUDGET.p99Ms,
  });
  // Every page rendered, none from the learner pages kept in memory: what the server does for each.
  for (const [label, target, reader] of [
    ["reader, page 1", textPath, true],
    ["reader, page 5 with a word's panel", `${textPath}?page=5&word=2100`, true],
    ["texts list (statistics)", "/account/texts", true],
    ["My home (known total)", "/account/home", false],
    ["Statistics (known words by day)", "/account/statistics", false],
  ] as const) {
    progress(`${database}: GET ${target}, rendered each time`);
    rows.push(row(label, (await getSeries(server, jar, target, { drawn: true })).server, reader));
  }
  progress(`${database}: "I know this word" and the reader's page after it, × ${MARKS}`);
  rows.push(row(`reader, page 1 after "I know this word"`, await afterMarking(server, jar, textPath), true));
  return rows;
}

/**
 * The learner marks a word known from the panel, then reads on: the page after each mark, the first with the new
 * known word (server time of the GET).
 */
async function afterMarking(server: AppServer, jar: CookieJar, textPath: string): Promise<Stats> {
  const from = server.logs().length;
  const started = performance.now();
  for (let i = 0; i < MARKS && performance.now() - started < SERIES_CAP_MS; i++) {
    const form = { intent: "ignore", text: `benchknown${i}`, page: "1" };
    const marked = await request(server.baseUrl, textPath, { jar, form });
    if (marked.status !== 302 || !marked.location) throw new Error(`marking a word known answered ${marked.status}`);
    const page = await request(server.baseUrl, marked.location, { jar });
    if (page.status !== 200) throw new Error(`GET ${marked.location} answered ${page.status}`);
  }
  await sleep(200);
  return stats(serverTimes(server, from, "GET", textPath));
}

/** BENCH_CPU_PROF=dir: the servers write their CPU profiles there (each thread's). */
const profiled = (): Record<string, string> =>
  process.env.BENCH_CPU_PROF
    ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}` }
    : {};

export async function readerBench(): Promise<ReaderRow[]> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "polyglot-bench-reader-"));
  const removeTmp = onCleanup(`temp dir ${tmp}`, () => rmSync(tmp, { recursive: true, force: true }));
  try {
    const rows: ReaderRow[] = [];
    const dataDir = path.join(tmp, "pglite-data");
    progress(`reader, PGlite: seeding ${TERMS} terms and ${KNOWN_WORDS} known words`);
    await seed({ DATA_DIR: dataDir }, { known: KNOWN_WORDS });
    const pglite = await startApp(tmp, "reader-pglite", { DATA_DIR: dataDir, ...profiled() });
    try {
      rows.push(...(await measure(pglite, "PGlite")));
    } finally {
      await pglite.stop();
    }
    const postgres = await startPostgres();
    const stopPostgres = onCleanup("PostgreSQL (reader)", () => postgres.stop());
    try {
      const databaseUrl = await postgres.createDatabase("polyglot_reader_bench");
      const server = await startApp(tmp, "reader-postgresql", {
        DATABASE_URL: databaseUrl,
        DATA_DIR: path.join(tmp, "unused-data"),
        ...profiled(),
      });
      try {
        progress(`reader, PostgreSQL: seeding ${TERMS} terms and ${KNOWN_WORDS} known words`);
        await seed({ DATABASE_URL: databaseUrl }, { known: KNOWN_WORDS });
        rows.push(...(await measure(server, "PostgreSQL")));
      } finally {
        await server.stop();
      }
    } finally {
      await postgres.stop();
      stopPostgres();
    }
    return rows;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    removeTmp();
  }
}

export function readerTable(rows: ReaderRow[]): string {
  return [
    "| database | page | server p50 | server p95 | server p99 | requests | budget |",
    "|---|---|---:|---:|---:|---:|---|",
    ...rows.map(
      (row) =>
        `| ${row.database} | ${row.page} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.p99)} | ${row.n} | ${row.budget}: ${row.ok ? "met" : "MISSED"} |`,
    ),
  ].join("\n");
}

if (import.meta.main) {
  try {
    const rows = await readerBench();
    console.log(`\nReader, ${TERMS} terms and ${KNOWN_WORDS} known words, a ${TEXT_WORDS}-word text`);
    console.log(readerTable(rows));
    if (rows.some((row) => !row.ok)) process.exitCode = 1;
  } catch (error) {
    console.error(`reader bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}
