/**
 * The reader's dictionaries at scale (issue 52): with a million dictionary entries loaded (dictionary-data.ts), on
 * PGlite and on PostgreSQL,
 *   - a look-up as the word panel makes it: the word's glosses (`lookUp`, its own entries, its lemma's and its
 *     dictionary forms') and its lemmas for the family proposals (`dictionaryLemmas`), timed together in this process
 *     on the database the server uses; budget p95 ≤ 5 ms;
 *   - opening a word's panel: the reader page of a text with a new word selected, server time from the request log,
 *     each request a different word; budget p95 ≤ 50 ms.
 *
 *   node scripts/bench/dictionary-speed.ts      (after `npm run build`; also `npm run bench -- --only dictionary`)
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../app/db/open.server.ts";
import { sql } from "drizzle-orm";
import { panelLookUp } from "../../app/dictionary/entries.server.ts";
import { startPostgres } from "../support/postgres.ts";
import { accountOptions } from "./account-pages.ts";
import { type AppServer, startApp } from "./app-server.ts";
import { seed, serverTimes, signIn } from "./database.ts";
import {
  formsOf,
  headwordsOf,
  inflectedEntry,
  loadSyntheticDictionaries,
  syntheticForm,
  syntheticWord,
} from "./dictionary-data.ts";
import { request } from "./http.ts";
import { addText, random } from "./reader.ts";
import { cleanup, EMAIL, onCleanup, progress, ROOT, SAMPLES, SEED, sleep } from "./run.ts";
import { int, ms, stats } from "./stats.ts";

export const LOOKUP_P95_MS = 5;
export const PANEL_P95_MS = 50;
const LOOKUPS = 1_000;
const TEXT_WORDS = 450;
const MIGRATIONS = path.join(ROOT, "drizzle");

/** A word of `language` as a reader meets it: a headword, an inflected entry, a dictionary form, or no entry at all. */
function wordPicker(seedValue: number) {
  const next = random(seedValue);
  const below = (n: number) => Math.floor(next() * n);
  return (language: string, to: string): string => {
    const roll = next();
    const headwords = headwordsOf(language, to) || headwordsOf(language, "en");
    if (roll < 0.5) return syntheticWord(below(headwords));
    if (roll < 0.7) return inflectedEntry(below(Math.floor(headwords / 9)) * 9 + 4);
    if (roll < 0.9 && formsOf(language) > 0) return syntheticForm(below(formsOf(language)));
    return `${syntheticWord(below(headwords))}qx`;
  };
}

/** (text language, interface language) of the look-ups, as learners of the largest pairs read. */
const READERS: readonly [string, string][] = [
  ["de", "en"],
  ["de", "fr"],
  ["ja", "en"],
  ["ja", "de"],
  ["zh", "en"],
  ["fr", "de"],
  ["es", "en"],
  ["ru", "en"],
  ["en", "de"],
];

export type DictionaryRow = {
  database: string;
  what: string;
  p50: number;
  p95: number;
  n: number;
  budget: number | null;
  ok: boolean;
};

/** LOOKUPS look-ups of the panel (glosses and lemmas) after a tenth as many unmeasured, with the times of each. */
async function lookUpSeries(databaseUrl: string | undefined, dataDir: string, label: string): Promise<DictionaryRow> {
  // As the server opens it: PGlite on a thread of its own, which keeps repeated statements prepared.
  const handle = await openDatabase({ databaseUrl, dataDir, migrationsFolder: MIGRATIONS, worker: !databaseUrl });
  try {
    const pick = wordPicker(SEED);
    const once = async (i: number) => {
      const [language, locale] = READERS[i % READERS.length]!;
      const word = pick(language, locale);
      const targets = locale === "en" ? ["en"] : [locale, "en"];
      const started = performance.now();
      await panelLookUp(handle.db, language, targets, word);
      return performance.now() - started;
    };
    // The floor beside it, as bare node:http is beside the pages: the same driver's `select 1`, interleaved.
    const floor: number[] = [];
    const bare = async () => {
      const started = performance.now();
      await handle.db.execute(sql`select 1`);
      floor.push(performance.now() - started);
    };
    for (let i = 0; i < LOOKUPS / 10; i++) await once(i);
    const times: number[] = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < LOOKUPS; i++) times.push(await once(i));
    const used = process.cpuUsage(cpu);
    for (let i = 0; i < LOOKUPS; i++) await bare();
    const s = stats(times);
    const f = stats(floor);
    const cpuMs = (used.user + used.system) / 1000 / LOOKUPS;
    progress(`${label}: look-ups p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, CPU ${ms(cpuMs)} each; select 1 p95 ${ms(f.p95)}`);
    return {
      database: label,
      what: `look-up (glosses and lemmas; CPU ${ms(cpuMs)} each, \`select 1\` p95 ${ms(f.p95)})`,
      p50: s.p50,
      p95: s.p95,
      n: s.n,
      budget: LOOKUP_P95_MS,
      ok: s.p95 <= LOOKUP_P95_MS,
    };
  } finally {
    await handle.close();
  }
}

/** A German text of dictionary words: headwords, inflected entries, forms and unknown words. */
function germanText(): string {
  const pick = wordPicker(SEED + 1);
  const sentences: string[] = [];
  for (let words = 0; words < TEXT_WORDS; words += 10) {
    const sentence = Array.from({ length: 10 }, () => pick("de", "en")).join(" ");
    sentences.push(`${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`);
  }
  return sentences.join(" ");
}

/** The reader page with a different word's panel open each time, server time from the request log. */
async function panelSeries(server: AppServer, label: string): Promise<DictionaryRow[]> {
  const jar = await signIn(server, EMAIL);
  const textPath = await addText(server, jar, "Bench: dictionary words", germanText());
  const open = async (word: number) => {
    const reply = await request(server.baseUrl, `${textPath}?word=${word}`, { jar });
    if (reply.status !== 200) throw new Error(`GET ${textPath}?word=${word} answered ${reply.status}`);
  };
  const samples = Math.min(SAMPLES, TEXT_WORDS - 10);
  /** Server times of `samples` requests, each for another word (a number past the text's end opens no panel). */
  const series = async (first: number) => {
    await sleep(200);
    const from = server.logs().length;
    for (let i = 0; i < samples; i++) await open(first + i);
    await sleep(200);
    return stats(serverTimes(server, from, "GET", new URL(textPath, server.baseUrl).pathname));
  };
  for (let i = 0; i < 10; i++) await open(TEXT_WORDS - 1 - i);
  const panel = await series(0);
  // The same page with no word open, beside it: what the panel adds, apart from the machine's load.
  const page = await series(1_000_000);
  progress(`${label}: panel p50 ${ms(panel.p50)}, p95 ${ms(panel.p95)}; without a panel p95 ${ms(page.p95)}`);
  return [
    {
      database: label,
      what: "a word's panel opened (server)",
      p50: panel.p50,
      p95: panel.p95,
      n: panel.n,
      budget: PANEL_P95_MS,
      ok: panel.p95 <= PANEL_P95_MS && panel.n >= samples,
    },
    {
      database: label,
      what: "the same page, no word open (reference)",
      p50: page.p50,
      p95: page.p95,
      n: page.n,
      budget: null,
      ok: true,
    },
  ];
}

/** BENCH_CPU_PROF=dir: the servers write their CPU profiles there (each thread's). */
const profiled = (): Record<string, string> =>
  process.env.BENCH_CPU_PROF
    ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}` }
    : {};

const CACHE = path.join(ROOT, "node_modules", ".cache", "polyglot-bench");
/** The loaded PGlite directory is kept for the day, as the seeded learners are (learners.ts): the data and migrations. */
function cachedPglite(): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(path.join(import.meta.dirname, "dictionary-data.ts")));
  hash.update(readFileSync(path.join(MIGRATIONS, "meta", "_journal.json")));
  hash.update(new Date().toISOString().slice(0, 10));
  return path.join(CACHE, `dictionary-pglite-${hash.digest("hex").slice(0, 16)}`);
}

/** A PGlite directory with the synthetic dictionaries at `dataDir`: from the cache, or loaded and then cached. */
async function pgliteLoaded(dataDir: string) {
  const cached = cachedPglite();
  const useCache = process.env.BENCH_SEED_CACHE !== "0";
  if (useCache && existsSync(cached)) {
    progress(`dictionary, PGlite: the loaded dictionaries from ${path.relative(ROOT, cached)}`);
    cpSync(cached, dataDir, { recursive: true });
    return;
  }
  await loadInto(undefined, dataDir, "PGlite");
  if (!useCache) return;
  mkdirSync(CACHE, { recursive: true });
  for (const name of readdirSync(CACHE))
    if (name.startsWith("dictionary-pglite-")) rmSync(path.join(CACHE, name), { recursive: true, force: true });
  cpSync(dataDir, `${cached}.tmp`, { recursive: true });
  renameSync(`${cached}.tmp`, cached);
}

async function loadInto(databaseUrl: string | undefined, dataDir: string, label: string) {
  const handle = await openDatabase({ databaseUrl, dataDir, migrationsFolder: MIGRATIONS });
  // On PostgreSQL a connection of its own, without the app pool's statement deadlines (a busy machine passes them).
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const client = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null;
  try {
    await client?.connect();
    const started = performance.now();
    const cpu = process.cpuUsage();
    const loaded = await loadSyntheticDictionaries(
      client ? (drizzle(client) as unknown as typeof handle.db) : handle.db,
    );
    const used = process.cpuUsage(cpu);
    progress(
      `${label}: ${int(loaded.entries)} entries and ${int(loaded.forms)} dictionary forms loaded in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s (this process' CPU ${((used.user + used.system) / 1e6).toFixed(1)} s)`,
    );
  } finally {
    await client?.end();
    await handle.close();
  }
}

export async function dictionaryBench(): Promise<DictionaryRow[]> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "polyglot-bench-dictionary-"));
  const removeTmp = onCleanup(`temp dir ${tmp}`, () => rmSync(tmp, { recursive: true, force: true }));
  const rows: DictionaryRow[] = [];
  try {
    const { databases } = accountOptions();
    if (databases.includes("pglite")) rows.push(...(await pgliteRows(tmp)));
    if (databases.includes("postgresql")) rows.push(...(await postgresRows(tmp)));
    return rows;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    removeTmp();
  }
}

async function pgliteRows(tmp: string): Promise<DictionaryRow[]> {
  const rows: DictionaryRow[] = [];
  const dataDir = path.join(tmp, "pglite-data");
  await pgliteLoaded(dataDir);
  rows.push(await lookUpSeries(undefined, dataDir, "PGlite"));
  await seed({ DATA_DIR: dataDir }, { count: 1_000, language: "de" });
  const pglite = await startApp(tmp, "dictionary-pglite", { DATA_DIR: dataDir, ...profiled() });
  try {
    rows.push(...(await panelSeries(pglite, "PGlite")));
  } finally {
    await pglite.stop();
  }
  return rows;
}

async function postgresRows(tmp: string): Promise<DictionaryRow[]> {
  const rows: DictionaryRow[] = [];
  const postgres = await startPostgres();
  const stopPostgres = onCleanup("PostgreSQL (dictionary)", () => postgres.stop());
  try {
    const databaseUrl = await postgres.createDatabase("polyglot_dictionary_bench");
    const unused = path.join(tmp, "unused-data");
    progress("dictionary, PostgreSQL: loading a million entries");
    await loadInto(databaseUrl, unused, "PostgreSQL");
    rows.push(await lookUpSeries(databaseUrl, unused, "PostgreSQL"));
    await seed({ DATABASE_URL: databaseUrl }, { count: 1_000, language: "de" });
    const server = await startApp(tmp, "dictionary-postgresql", {
      DATABASE_URL: databaseUrl,
      DATA_DIR: unused,
      ...profiled(),
    });
    try {
      rows.push(...(await panelSeries(server, "PostgreSQL")));
    } finally {
      await server.stop();
    }
  } finally {
    await postgres.stop();
    stopPostgres();
  }
  return rows;
}

export function dictionaryTable(rows: DictionaryRow[]): string {
  return [
    "| database | what | p50 | p95 | n | budget |",
    "|---|---|---:|---:|---:|---|",
    ...rows.map(
      (row) =>
        `| ${row.database} | ${row.what} | ${ms(row.p50)} | ${ms(row.p95)} | ${row.n} | ${row.budget === null ? "–" : `p95 ≤ ${row.budget} ms: ${row.ok ? "met" : "MISSED"}`} |`,
    ),
  ].join("\n");
}

export const DICTIONARY_TITLE = `Dictionaries, a million entries (budget: look-up p95 ≤ ${LOOKUP_P95_MS} ms, panel p95 ≤ ${PANEL_P95_MS} ms)`;

if (import.meta.main) {
  try {
    const rows = await dictionaryBench();
    console.log(`\n${DICTIONARY_TITLE}`);
    console.log(dictionaryTable(rows));
    if (rows.some((row) => !row.ok)) process.exitCode = 1;
  } catch (error) {
    console.error(
      `dictionary bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}
