/**
 * How many words of real text the reader's panel offers a meaning for, and how many inflected ones it names the
 * dictionary form of, with the dictionaries loaded in the configured database (DATABASE_URL, or DATA_DIR, default
 * ./data, after `npm run dict:install`):
 *
 *   node scripts/bench/dictionary-coverage.ts [--interfaces en,de,fr,es] [--json FILE] [--misses de>en]
 *       (npm run bench:dictionary; --misses lists the words of one pair that got nothing)
 *
 * The text: samples of Universal Dependencies test treebanks (tests/fixtures/treebanks, CC BY-SA). Per language and
 * interface: the distinct content words (NOUN, VERB, ADJ, ADV; in Japanese and Chinese those written with kanji or
 * hanzi) that get at least one meaning as the panel looks them up (the interface language, then English), those that
 * get one in the interface language itself, and among the inflected ones (the treebank's lemma differs from the form)
 * those whose look-up names that lemma as their dictionary form. Also the look-up's time, p50 and p95. A report, not
 * a test: it exits 0 whatever the figures, 1 when the database cannot be opened.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { lookUp } from "../../app/dictionary/entries.server.ts";
import { openScriptDatabase } from "../support/script-database.ts";

const TREEBANKS = path.resolve(import.meta.dirname, "../../tests/fixtures/treebanks");
const CONTENT = new Set(["NOUN", "VERB", "ADJ", "ADV"]);
const HAN = /\p{Script=Han}/u;

export type Word = { form: string; lemma: string };

/** The distinct content words of a CoNLL-U text (multiword-token lines and empty nodes skipped). */
export function contentWords(conllu: string, language: string): Word[] {
  const words = new Map<string, Word>();
  for (const line of conllu.split("\n")) {
    const fields = line.split("\t");
    if (fields.length !== 10 || !/^\d+$/.test(fields[0]!)) continue;
    const [, form, lemma, upos] = fields as [string, string, string, string];
    if (!CONTENT.has(upos) || !/\p{L}/u.test(form)) continue;
    if ((language === "ja" || language === "zh") && !HAN.test(form)) continue;
    const key = form.toLocaleLowerCase(language);
    if (!words.has(key)) words.set(key, { form, lemma });
  }
  return [...words.values()];
}

const percent = (part: number, whole: number) => (whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)} %`);
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

const { values } = parseArgs({
  options: {
    interfaces: { type: "string", default: "en,de,fr,es" },
    json: { type: "string" },
    misses: { type: "string" },
  },
});
const interfaces = values.interfaces.split(",").filter(Boolean);
const { handle } = await openScriptDatabase("dictionary-coverage", {
  running: "; run the bench with the server stopped, or on PostgreSQL.",
  failed: "",
});

type Row = {
  pair: string;
  words: number;
  meaning: number;
  ownLanguage: number;
  inflected: number;
  lemmaNamed: number;
  p50: number;
  p95: number;
};
const rows: Row[] = [];
for (const file of readdirSync(TREEBANKS)
  .filter((name) => name.endsWith(".conllu"))
  .sort()) {
  const language = file.slice(0, 2);
  const words = contentWords(readFileSync(path.join(TREEBANKS, file), "utf8"), language);
  for (const locale of interfaces) {
    if (locale === language) continue;
    const targets = locale === "en" ? ["en"] : [locale, "en"];
    const times: number[] = [];
    let meaning = 0;
    let ownLanguage = 0;
    let inflected = 0;
    let lemmaNamed = 0;
    for (const { form, lemma } of words) {
      const started = performance.now();
      const found = await lookUp(handle.db, language, targets, form);
      times.push(performance.now() - started);
      if (found.length > 0) meaning++;
      else if (values.misses === `${language}>${locale}`) console.log(`no meaning: ${form} (${lemma})`);
      if (found.some((entry) => entry.language === locale)) ownLanguage++;
      const lower = (text: string) => text.toLocaleLowerCase(language);
      if (lower(form) !== lower(lemma) && !(language === "ja" || language === "zh")) {
        inflected++;
        if (found.some((entry) => entry.via !== null && lower(entry.headword).replace(/^\S+ /, "") === lower(lemma)))
          lemmaNamed++;
        else if (found.some((entry) => entry.via !== null && lower(entry.via) === lower(lemma))) lemmaNamed++;
        else if (values.misses === `${language}>${locale}`) console.log(`no dictionary form: ${form} (${lemma})`);
      }
    }
    times.sort((a, b) => a - b);
    rows.push({
      pair: `${language} → ${locale}`,
      words: words.length,
      meaning,
      ownLanguage,
      inflected,
      lemmaNamed,
      p50: quantile(times, 0.5),
      p95: quantile(times, 0.95),
    });
  }
}
await handle.close();

console.log(
  "| pair | content words | a meaning | in the interface language | inflected | dictionary form named | look-up p50 / p95 |",
);
console.log("| --- | --: | --: | --: | --: | --: | --: |");
for (const row of rows)
  console.log(
    `| ${row.pair} | ${row.words} | ${percent(row.meaning, row.words)} | ${percent(row.ownLanguage, row.words)} | ` +
      `${row.inflected} | ${percent(row.lemmaNamed, row.inflected)} | ${row.p50.toFixed(2)} / ${row.p95.toFixed(2)} ms |`,
  );
if (values.json) writeFileSync(values.json, `${JSON.stringify(rows, null, 2)}\n`);
