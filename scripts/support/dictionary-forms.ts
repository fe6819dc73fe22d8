/**
 * The inflected forms `npm run dict:install` loads from Debian's Hunspell dictionaries (/usr/share/hunspell, packages
 * hunspell-de-de, hunspell-fr, …; docs/decisions/100-…): for each language with a loaded dictionary, every form of a
 * stem that is one of its headwords, with that stem as its dictionary form. Skipped when neither the Hunspell files
 * nor the headwords changed.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "../../app/db/open.server.ts";
import { dictionaryKey, storedDigests } from "../../app/dictionary/entries.server.ts";
import { eachForm, parseAffixes } from "../../app/dictionary/hunspell.ts";
import { copyRows, upsertSource, type PgliteClient } from "./dictionary-load.ts";
import { HUNSPELL } from "./dictionary-set.ts";
import { NOT_EXPANDED } from "./vendored-dictionaries.ts";

const BATCH = 20_000;
const READER_VERSION = "hunspell-2";

type Options = {
  log: (line: string) => void;
  size: () => Promise<number>;
  /** The embedded database's client: the forms are written with COPY (support/dictionary-load.ts). */
  pglite?: PgliteClient;
};

export async function installForms(db: Database, dir: string, { log, size, pglite }: Options): Promise<void> {
  const digests = await storedDigests(db);
  for (const [language, { file, package: debian, licence }] of Object.entries(HUNSPELL)) {
    const aff = path.join(dir, `${file}.aff`);
    const dic = path.join(dir, `${file}.dic`);
    if (!existsSync(aff) || !existsSync(dic)) {
      log(`dict-install: no Hunspell dictionary for ${language} in ${dir} (Debian package ${debian}); skipped`);
      continue;
    }
    const headwords = await headwordKeys(db, language);
    if (headwords.size === 0) continue;
    const affText = readFileSync(aff, "utf8");
    const dicText = readFileSync(dic, "utf8");
    const digest = createHash("sha256")
      .update(READER_VERSION)
      .update(affText)
      .update(dicText)
      .update([...headwords].sort().join("\n"))
      .digest("hex");
    const name = `hunspell-${file}`;
    if (digests.get(`${name} ${language} ${language}`) === digest) continue;
    const began = Date.now();
    const before = await size();
    const rows = new Map<string, { f: string; l: string; lk: string }>();
    const key = (text: string) => dictionaryKey(language, text);
    eachForm(
      dicText,
      parseAffixes(affText),
      (stem) => (headwords.has(key(stem)) ? stem : guessedLemma(language, stem, (text) => headwords.has(key(text)))),
      (form, stem) => {
        const formKey = key(form);
        const lemmaKey = key(stem);
        if (formKey !== lemmaKey) rows.set(`${formKey}\t${lemmaKey}`, { f: formKey, l: stem, lk: lemmaKey });
      },
    );
    if (pglite) {
      const known = digests.has(`${name} ${language} ${language}`);
      await copyForms(pglite, name, language, [...rows.values()], { file, licence, digest, known });
      const grown = (await size()) - before;
      log(
        `dict-install: ${name} ${language}: ${rows.size} inflected forms (${licence}) in ${Date.now() - began} ms, ` +
          `database +${(grown / 1e6).toFixed(1)} MB`,
      );
      continue;
    }
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`dictionary ${name}`}))`);
      await tx.execute(sql`delete from dictionary_forms where source = ${name} and language = ${language}`);
      const all = [...rows.values()];
      for (let i = 0; i < all.length; i += BATCH)
        await tx.execute(sql`
          insert into dictionary_forms (source, language, form_key, lemma, lemma_key)
          select ${name}, ${language}, f, l, lk from json_to_recordset(${JSON.stringify(all.slice(i, i + BATCH))}::json)
            as x(f text, l text, lk text)`);
      const source = {
        name,
        fromLanguage: language,
        toLanguage: language,
        title: `Hunspell ${file} (inflected forms)`,
        licence,
        url: "https://hunspell.github.io/",
        entries: all.length,
        digest,
      };
      await tx.execute(sql`
        insert into dictionary_sources (name, from_language, to_language, title, licence, url, entries, digest, imported_at)
        values (${source.name}, ${language}, ${language}, ${source.title}, ${licence}, ${source.url}, ${all.length},
          ${digest}, now())
        on conflict (name, from_language, to_language) do update set title = excluded.title,
          licence = excluded.licence, url = excluded.url, entries = excluded.entries, digest = excluded.digest,
          imported_at = excluded.imported_at`);
    });
    const grown = (await size()) - before;
    log(
      `dict-install: ${name} ${language}: ${rows.size} inflected forms (${licence}) in ${Date.now() - began} ms, ` +
        `database +${(grown / 1e6).toFixed(1)} MB`,
    );
  }
}

/** The forms of one language written with COPY, in one transaction: what the INSERT path does, on PGlite. */
async function copyForms(
  client: PgliteClient,
  name: string,
  language: string,
  rows: { f: string; l: string; lk: string }[],
  { file, licence, digest, known }: { file: string; licence: string; digest: string; known: boolean },
) {
  await client.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtext($1))`, [`dictionary ${name}`]);
    // Never loaded before: nothing to delete (the table may be without its indexes meanwhile).
    if (known) await tx.query(`delete from dictionary_forms where source = $1 and language = $2`, [name, language]);
    const lines = rows.map((row) => [name, language, row.f, row.l, row.lk] as const);
    await copyRows(tx, "dictionary_forms", ["source", "language", "form_key", "lemma", "lemma_key"], lines);
    await upsertSource(tx, {
      name,
      from: language,
      to: language,
      title: `Hunspell ${file} (inflected forms)`,
      licence,
      url: "https://hunspell.github.io/",
      entries: rows.length,
      digest,
    });
  });
}

async function headwordKeys(db: Database, language: string): Promise<Set<string>> {
  const excluded = (NOT_EXPANDED[language] ?? []).map((source) => sql`and source <> ${source}`);
  const result = await db.execute(
    sql`select distinct headword_key as k from dictionary_entries where from_language = ${language} ${sql.join(excluded, sql` `)}`,
  );
  return new Set((result as unknown as { rows: { k: string }[] }).rows.map((row) => row.k));
}

/** Endings a stem of the Hunspell dictionary may still carry when it is itself a form ("Mitglieder", "Gläser"). */
const STEM_ENDINGS: Record<string, string[]> = { de: ["er", "e", "en", "n", "s", "es"] };
const UMLAUTS: [RegExp, string][] = [
  [/äu(?=[^aeiouäöü]*$)/, "au"],
  [/ä(?=[^aeiouäöü]*$)/, "a"],
  [/ö(?=[^aeiouäöü]*$)/, "o"],
  [/ü(?=[^aeiouäöü]*$)/, "u"],
];

/**
 * igerman98 lists some inflected stems as words of their own ("Mitglieder/hij", "Gläser/hij"): such a stem, not a
 * headword, belongs to the headword it gives without its ending (and, in German, without the umlaut its plural added).
 */
export function guessedLemma(language: string, stem: string, isHeadword: (text: string) => boolean): string | null {
  for (const ending of STEM_ENDINGS[language] ?? []) {
    if (!stem.endsWith(ending) || stem.length - ending.length < 3) continue;
    const base = stem.slice(0, -ending.length);
    if (isHeadword(base)) return base;
    for (const [umlaut, vowel] of UMLAUTS) {
      const plain = base.replace(umlaut, vowel);
      if (plain !== base && isHeadword(plain)) return plain;
    }
  }
  return null;
}
