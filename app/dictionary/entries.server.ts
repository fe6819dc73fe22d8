// Plain `node` runs this file (scripts/dict-import.ts): relative imports carry `.ts`.
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/open.server.ts";
import { LOCALES } from "../i18n/locales.ts";
import { withoutArticle } from "../learning/cloze.ts";
import { dictionaryEntries, dictionarySources } from "./dictionary.schema.ts";
import type { ParsedEntry } from "./formats.ts";

/** The languages whose lower case differs from Unicode's default one (İ → i in Turkish, for instance). */
const OWN_LOWER_CASE = new Set(["tr", "az", "lt"]);

/** What is looked up: the text lower-cased in its language, without a leading article ("der Hund" → "hund"). */
export function dictionaryKey(language: string, text: string): string {
  const core = withoutArticle(text.normalize("NFC"), language);
  // Only Turkish, Azerbaijani and Lithuanian have lower-case rules of their own; the default one is much quicker.
  if (!OWN_LOWER_CASE.has(language.split("-")[0]!.toLowerCase())) return core.toLowerCase();
  try {
    return core.toLocaleLowerCase(language);
  } catch {
    return core.toLowerCase();
  }
}

export type DictionarySource = {
  name: string;
  title: string;
  licence: string;
  url: string;
  from: string;
  to: string;
};

const INSERT_BATCH = 5_000;

/**
 * Replaces what a source holds for one direction with `entries`, in one transaction under a lock of its own: readers
 * (the app, running on PostgreSQL) see the old entries until it commits, and a failure leaves them as they were.
 * Returns how many entries were removed and written.
 */
export async function replaceSource(
  db: Database,
  source: DictionarySource,
  entries: readonly ParsedEntry[],
  digest = "",
): Promise<{ removed: number; written: number }> {
  const { from, to } = source;
  return db.transaction(async (tx) => {
    // One replacement of a source's direction at a time: two instances starting together (or an import meeting a
    // start) would otherwise each delete what the other had not committed yet and both insert.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`dictionary ${source.name} ${from} ${to}`}))`);
    const removed = await tx
      .delete(dictionaryEntries)
      .where(
        and(
          eq(dictionaryEntries.source, source.name),
          eq(dictionaryEntries.fromLanguage, from),
          eq(dictionaryEntries.toLanguage, to),
        ),
      )
      .returning({ id: dictionaryEntries.id });
    // Each batch is one parameter (a JSON array) read by json_to_recordset: a statement with a parameter per value
    // costs the embedded database far more to prepare than the rows cost to write.
    for (let i = 0; i < entries.length; i += INSERT_BATCH) {
      const rows = entries.slice(i, i + INSERT_BATCH).map((entry) => ({
        h: entry.headword,
        hk: dictionaryKey(from, entry.headword),
        l: entry.lemma,
        lk: entry.lemma ? dictionaryKey(from, entry.lemma) : null,
        r: entry.reading,
        p: entry.partOfSpeech,
        g: entry.glosses,
      }));
      await tx.execute(sql`
        insert into dictionary_entries
          (source, from_language, to_language, headword, headword_key, lemma, lemma_key, reading, part_of_speech, glosses)
        select ${source.name}, ${from}, ${to}, h, hk, l, lk, r, p, g
        from json_to_recordset(${JSON.stringify(rows)}::json)
          as x(h text, hk text, l text, lk text, r text, p text, g jsonb)`);
    }
    const row = {
      name: source.name,
      fromLanguage: from,
      toLanguage: to,
      title: source.title,
      licence: source.licence,
      url: source.url,
      entries: entries.length,
      digest,
      importedAt: new Date(),
    };
    await tx
      .insert(dictionarySources)
      .values(row)
      .onConflictDoUpdate({
        target: [dictionarySources.name, dictionarySources.fromLanguage, dictionarySources.toLanguage],
        set: row,
      });
    return { removed: removed.length, written: entries.length };
  });
}

export type Gloss = {
  headword: string;
  /** Set when the entry was found through the word's lemma: the word is a form of this headword. */
  via: string | null;
  reading: string | null;
  partOfSpeech: string | null;
  glosses: string[];
  source: string;
  language: string;
};

type Row = {
  kind: "entry" | "lemma";
  headword: string;
  headword_key: string | null;
  lemma: string | null;
  reading: string | null;
  part_of_speech: string | null;
  glosses: string[] | string | null;
  source: string | null;
  to_language: string | null;
};

/** At most this many entries per look-up (a headword of CC-CEDICT has a few, of a Wiktionary extract a dozen). */
const LOOKUP_LIMIT = 40;
/** At most this many lemmas are proposed for one word. */
const MOST_LEMMAS = 3;

export type PanelLookUp = { glosses: Gloss[]; lemmas: string[] };

/**
 * What the reader's panel shows of a word of a text in `from`, in one statement:
 * - `glosses`: the entries with glosses in the first of `to` that has any (the interface language, then English): the
 *   word's own entries, then those of its lemmas, which its own entries name ("Hunde" → "Hund") or a morphological
 *   source gives it (`dictionary_forms`, "trinke" → "trinken");
 * - `lemmas`: its dictionary forms for the family proposals (ADR 061), from its entries glossed in any of `lemmaTo`
 *   and from `dictionary_forms`, the one named most often first.
 * Index look-ups only: (from, to, headword_key) for the word and for its lemmas (an `= any(array…)`, so the planner
 * scans the index; an `or … in (subquery)` made it read the whole table), and (language, form_key).
 */
export async function panelLookUp(
  db: Pick<Database, "execute">,
  from: string,
  to: readonly string[],
  word: string,
  lemmaTo: readonly string[] = LOCALES,
): Promise<PanelLookUp> {
  const key = dictionaryKey(from, word);
  if (!key || key.length > 200 || to.length === 0) return { glosses: [], lemmas: [] };
  const list = (values: readonly string[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  const all = [...new Set([...to, ...lemmaTo])];
  const result = await db.execute(sql`
    with own as (
      select headword, headword_key, lemma, lemma_key, reading, part_of_speech, glosses, source, to_language
      from dictionary_entries
      where from_language = ${from} and to_language in (${list(all)}) and headword_key = ${key}
      limit ${LOOKUP_LIMIT * 4}),
    forms as (select lemma, lemma_key from dictionary_forms where language = ${from} and form_key = ${key})
    (select 'entry' as kind, headword, headword_key, lemma, reading, part_of_speech, glosses, source, to_language
     from own where to_language in (${list(to)}) limit ${LOOKUP_LIMIT})
    union all
    (select 'entry', headword, headword_key, lemma, reading, part_of_speech, glosses, source, to_language
     from dictionary_entries
     where from_language = ${from} and to_language in (${list(to)}) and headword_key <> ${key}
       and headword_key = any(array(
         select lemma_key from own where lemma_key is not null and to_language in (${list(to)})
         union select lemma_key from forms))
     limit ${LOOKUP_LIMIT})
    union all
    (select 'lemma', lemma, null, null, null, null, null, null, null from (
       select lemma from own where lemma is not null and lemma_key <> ${key} and to_language in (${list(lemmaTo)})
       union all select lemma from forms) named
     group by lemma order by count(*) desc, lemma limit ${MOST_LEMMAS})`);
  const rows = (result as unknown as { rows: Row[] }).rows;
  const lemmas = rows.filter((row) => row.kind === "lemma").map((row) => row.headword);
  const entries = rows.filter((row) => row.kind === "entry").slice(0, LOOKUP_LIMIT);
  const language = to.find((target) => entries.some((row) => row.to_language === target && glossesOf(row).length > 0));
  if (!language) return { glosses: [], lemmas };
  // The word's own entries come first (the statement's first part).
  const glosses = entries
    .filter((row) => row.to_language === language && glossesOf(row).length > 0)
    .map((row) => ({
      headword: row.headword,
      via: row.headword_key === key ? null : row.headword,
      reading: row.reading,
      partOfSpeech: row.part_of_speech,
      glosses: glossesOf(row),
      source: row.source ?? "",
      language,
    }));
  return { glosses, lemmas };
}

/** The glosses of `panelLookUp`. */
export async function lookUp(
  db: Pick<Database, "execute">,
  from: string,
  to: readonly string[],
  word: string,
): Promise<Gloss[]> {
  return (await panelLookUp(db, from, to, word)).glosses;
}

/**
 * The dictionary's lemmas of a word ("ging" → ["gehen"]) alone, as `panelLookUp` gives them: for the family
 * proposals of a word whose glosses are not looked up. Index look-ups on (from, to, headword_key) and
 * (language, form_key).
 */
export async function dictionaryLemmas(
  db: Pick<Database, "execute">,
  from: string,
  to: readonly string[],
  word: string,
): Promise<string[]> {
  const key = dictionaryKey(from, word);
  if (!key || key.length > 200 || to.length === 0) return [];
  const result = await db.execute(sql`
    select lemma from (
      select lemma from dictionary_entries
      where from_language = ${from}
        and to_language in (${sql.join(
          to.map((language) => sql`${language}`),
          sql`, `,
        )})
        and headword_key = ${key} and lemma is not null and lemma_key <> ${key}
      union all
      select lemma from dictionary_forms where language = ${from} and form_key = ${key}
    ) found
    group by lemma order by count(*) desc, lemma limit ${MOST_LEMMAS}`);
  return (result as unknown as { rows: { lemma: string }[] }).rows.map((row) => row.lemma);
}

// PGlite and node-postgres both return jsonb parsed; a driver returning text is read too.
const glossesOf = (row: Row): string[] =>
  typeof row.glosses === "string" ? (JSON.parse(row.glosses) as string[]) : (row.glosses ?? []);

export type SourceRow = {
  name: string;
  from: string;
  to: string;
  title: string;
  licence: string;
  url: string;
  entries: number;
  importedAt: Date;
};

/** Every dictionary loaded, for the sources page. */
export async function listSources(db: Database): Promise<SourceRow[]> {
  const rows = await db
    .select()
    .from(dictionarySources)
    .orderBy(dictionarySources.name, dictionarySources.fromLanguage, dictionarySources.toLanguage);
  return rows.map((row) => ({
    name: row.name,
    from: row.fromLanguage,
    to: row.toLanguage,
    title: row.title,
    licence: row.licence,
    url: row.url,
    entries: row.entries,
    importedAt: row.importedAt,
  }));
}

/** The digest each loaded source direction was loaded with, by "name from to": unchanged files are not loaded again. */
export async function storedDigests(db: Database): Promise<Map<string, string>> {
  const rows = await db.select().from(dictionarySources);
  return new Map(rows.map((row) => [`${row.name} ${row.fromLanguage} ${row.toLanguage}`, row.digest]));
}
