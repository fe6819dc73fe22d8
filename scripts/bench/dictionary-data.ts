/**
 * Synthetic dictionaries of the real install's shape for the dictionary part of the bench (dictionary-speed.ts): a
 * million entries over the pairs `npm run dict:install` loads (German and Japanese into English and German the largest,
 * CC-CEDICT-sized Chinese), one entry in nine an inflected form naming its lemma (as FreeDict's "Hunde" → "Hund"), glosses
 * as a JSON array, and about 700,000 dictionary forms (ADR 100's Hunspell forms). Written by the database itself
 * (`generate_series`): nothing crosses the driver, so the load takes seconds of its CPU, not minutes of this process'.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../app/db/open.server.ts";

const SYLLABLES = "ka lo mi ne ru ta be so di fu ga he ji ku ma no pa ri se to vu wa ze bo ce da fe gi ho la me ni";
const S = SYLLABLES.split(" ");

/** The i-th word of every synthetic language: 3 or 4 syllables, distinct for i < 32⁴. */
export function syntheticWord(i: number): string {
  const fourth = Math.floor(i / 32_768) % 32;
  return S[i % 32]! + S[Math.floor(i / 32) % 32]! + S[Math.floor(i / 1024) % 32]! + (fourth === 0 ? "" : S[fourth]!);
}

/** The word's form that an entry of its own names the word as lemma of ("Hunde" → "Hund"): every i with i % 9 = 4. */
export const inflectedEntry = (i: number) => `${syntheticWord(i)}en`;
export const isInflected = (i: number) => i % 9 === 4;
const FORM_ENDINGS = ["e", "er", "est", "t"];
/** The dictionary form row of word i (`dictionary_forms`): form → word. */
export const syntheticForm = (i: number) => syntheticWord(i) + FORM_ENDINGS[i % 4]!;

/** Headwords per pair (from, to, source); each with one entry, plus an inflected entry for one in nine. */
export const PAIRS: readonly [string, string, string, number][] = [
  ["de", "en", "freedict", 180_000],
  ["en", "de", "freedict", 135_000],
  ["ja", "en", "freedict", 110_000],
  ["ja", "de", "freedict", 65_000],
  ["zh", "en", "cc-cedict", 90_000],
  ["fr", "en", "freedict", 40_000],
  ["es", "en", "freedict", 40_000],
  ["it", "en", "freedict", 30_000],
  ["ru", "en", "freedict", 45_000],
  ["de", "fr", "freedict", 40_000],
  ["fr", "de", "freedict", 40_000],
  ["es", "de", "freedict", 30_000],
  ["en", "fr", "freedict", 35_000],
  ["en", "es", "freedict", 25_000],
  ["pt", "en", "freedict", 20_000],
];
/** Dictionary forms per language. */
export const FORMS: readonly [string, number][] = [
  ["de", 250_000],
  ["fr", 100_000],
  ["es", 100_000],
  ["it", 80_000],
  ["ru", 80_000],
  ["pt", 40_000],
  ["en", 50_000],
];

export const headwordsOf = (from: string, to: string) => PAIRS.find(([f, t]) => f === from && t === to)?.[3] ?? 0;
export const formsOf = (language: string) => FORMS.find(([l]) => l === language)?.[1] ?? 0;

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
const values = (rows: readonly (readonly (string | number)[])[]) =>
  sql.raw(
    rows.map((row) => `(${row.map((v) => (typeof v === "number" ? String(v) : literal(v))).join(", ")})`).join(", "),
  );
const syllables = sql.raw(`array[${S.map(literal).join(", ")}]`);
const wordSql = (i: string) =>
  sql.raw(
    `s[1 + ${i} % 32] || s[1 + (${i} / 32) % 32] || s[1 + (${i} / 1024) % 32] || ` +
      `case when (${i} / 32768) % 32 = 0 then '' else s[1 + (${i} / 32768) % 32] end`,
  );

/** Loads the synthetic dictionaries into an empty, migrated database; returns the entries and forms written. */
export async function loadSyntheticDictionaries(db: Database): Promise<{ entries: number; forms: number }> {
  // In pieces of CHUNK words per pair: each statement stays within the PostgreSQL pool's statement deadline.
  const most = Math.max(...PAIRS.map(([, , , n]) => n), ...FORMS.map(([, n]) => n));
  for (let from = 0; from < most; from += CHUNK) await insertSynthetic(db, from, from + CHUNK);
  await db.execute(sql`analyze dictionary_entries`);
  await db.execute(sql`analyze dictionary_forms`);
  const entries = PAIRS.reduce((sum, [, , , n]) => sum + n + Math.floor((n + 4) / 9), 0);
  const forms = FORMS.reduce((sum, [, n]) => sum + n, 0);
  return { entries, forms };
}

const CHUNK = 5_000;

/** The entries and forms of the words i with from ≤ i < to. */
async function insertSynthetic(db: Database, from: number, to: number) {
  await db.execute(sql`
    with pairs(f, t, src, n) as (values ${values(PAIRS)}),
    gen as (
      select f, t, src, i, ${wordSql("i")} as w
      from pairs, (select ${syllables} as s) syl, generate_series(${from}::int, least(n, ${to}::int) - 1) i)
    insert into dictionary_entries
      (source, from_language, to_language, headword, headword_key, lemma, lemma_key, part_of_speech, glosses)
    select src, f, t, w || k.ending, w || k.ending, k.lemma, k.lemma,
      (array['noun', 'verb', 'adjective', 'adverb', null])[1 + i % 5],
      jsonb_build_array('a meaning of ' || w || ' in ' || t, 'another sense, number ' || i)
    from gen cross join lateral (
      select '' as ending, null::text as lemma
      union all select 'en', w where i % 9 = 4) k`);
  await db.execute(sql`
    with langs(l, n) as (values ${values(FORMS)}),
    gen as (
      select l, i, ${wordSql("i")} as w
      from langs, (select ${syllables} as s) syl, generate_series(${from}::int, least(n, ${to}::int) - 1) i)
    insert into dictionary_forms (source, language, form_key, lemma, lemma_key)
    select 'hunspell', l, w || (array['e', 'er', 'est', 't'])[1 + i % 4], w, w from gen`);
}
