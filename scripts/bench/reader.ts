/**
 * The reader with a long text (issue 12, point 7): a learner with 10,000 terms reads a 5,000-word text whose words are
 * partly their terms (a few multi-word ones among them), on PGlite and on PostgreSQL. Server time from the request log,
 * p95 over BENCH_SAMPLES requests after a warm-up; budget: p95 < 150 ms for the reader page, with and without a panel.
 *
 *   node scripts/bench/reader.ts      (after `npm run build`; also part of `npm run bench`'s budgets)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPostgres } from "../support/postgres.ts";
import { type AppServer, startApp } from "./app-server.ts";
import { getSeries, seed, signIn } from "./database.ts";
import { type CookieJar, request } from "./http.ts";
import { BASE_HEADERS, cleanup, EMAIL, onCleanup, progress, SEED, TERMS } from "./run.ts";
import { ms } from "./stats.ts";

export const READER_P95_MS = 150;
const TEXT_WORDS = 5_000;

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

/** About 5,000 words: two in three from the learner's terms, the rest unknown, in sentences and paragraphs. */
function longText(terms: string[]): string {
  const next = random(SEED);
  const filler = "the a of and to in is was it that with on for as at by from this they we".split(" ");
  const paragraphs: string[] = [];
  let words = 0;
  while (words < TEXT_WORDS) {
    const sentences: string[] = [];
    for (let s = 0; s < 5; s++) {
      const parts: string[] = [];
      const length = 8 + Math.floor(next() * 10);
      for (let w = 0; w < length; w++) {
        const roll = next();
        parts.push(
          roll < 0.66 ? terms[Math.floor(next() * terms.length)]! : filler[Math.floor(next() * filler.length)]!,
        );
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

export type ReaderRow = { database: string; page: string; p50: number; p95: number; n: number; ok: boolean };

async function measure(server: AppServer, database: string): Promise<ReaderRow[]> {
  const jar = await signIn(server, EMAIL);
  const body = longText(await someTerms(server, jar));
  const words = body.split(/\s+/).length;
  const textPath = await addText(server, jar, "Bench: a long text", body);
  progress(`${database}: a text of ${words} words at ${textPath}`);
  const rows: ReaderRow[] = [];
  for (const [label, query] of [
    ["reader, page 1", ""],
    ["reader, page 5 with a word's panel", "?page=5&word=2100"],
    ["texts list (statistics)", null],
  ] as const) {
    const target = query === null ? "/account/texts" : `${textPath}${query}`;
    progress(`${database}: GET ${target}`);
    const series = await getSeries(server, jar, target);
    rows.push({
      database,
      page: label,
      p50: series.server.p50,
      p95: series.server.p95,
      n: series.server.n,
      ok: series.server.p95 < READER_P95_MS,
    });
  }
  return rows;
}

export async function readerBench(): Promise<ReaderRow[]> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "polyglot-bench-reader-"));
  const removeTmp = onCleanup(`temp dir ${tmp}`, () => rmSync(tmp, { recursive: true, force: true }));
  try {
    const rows: ReaderRow[] = [];
    const dataDir = path.join(tmp, "pglite-data");
    progress(`reader, PGlite: seeding ${TERMS} terms`);
    await seed({ DATA_DIR: dataDir });
    const pglite = await startApp(tmp, "reader-pglite", { DATA_DIR: dataDir });
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
      });
      try {
        progress(`reader, PostgreSQL: seeding ${TERMS} terms`);
        await seed({ DATABASE_URL: databaseUrl });
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
    "| database | page | server p50 | server p95 | requests | budget |",
    "|---|---|---:|---:|---:|---|",
    ...rows.map(
      (row) =>
        `| ${row.database} | ${row.page} | ${ms(row.p50)} | ${ms(row.p95)} | ${row.n} | p95 < ${READER_P95_MS} ms: ${row.ok ? "met" : "MISSED"} |`,
    ),
  ].join("\n");
}

if (import.meta.main) {
  try {
    const rows = await readerBench();
    console.log(`\nReader, ${TERMS} terms, a ${TEXT_WORDS}-word text`);
    console.log(readerTable(rows));
    if (rows.some((row) => !row.ok)) process.exitCode = 1;
  } catch (error) {
    console.error(`reader bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}
