// Plain `node` runs this file (scripts/dict-install.ts): relative imports carry `.ts`, and nothing here needs Vite.
import { gunzipSync } from "node:zlib";
import {
  DictionaryFormatError,
  MAX_GLOSSES,
  MAX_HEADWORD_LENGTH,
  partOfSpeechOf,
  type Parsed,
  type ParsedEntry,
} from "./formats.ts";

/**
 * The dictd format FreeDict's Debian packages install under /usr/share/dictd: an `.index` of lines "key TAB offset TAB
 * length" (base64 numbers) into a `.dict.dz` (dictzip, a gzip file). Each entry's text starts with a line naming its
 * headwords ("Hund /hʊnt/ <masc, n, sg>", "足踏み /…/, あしぶみ /…/"), then one line per sense, then examples,
 * synonyms and cross references (indented, "see:", "Synonym:"), which are not glosses.
 */

const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function base64Number(text: string): number | null {
  if (!text || text.length > 8) return null;
  let value = 0;
  for (const char of text) {
    const digit = DIGITS.indexOf(char);
    if (digit < 0) return null;
    value = value * 64 + digit;
  }
  return value;
}

export type DictdIndexEntry = { key: string; offset: number; length: number };

/** Reads an `.index`; a line that is not "key TAB offset TAB length" within the data is refused with its number. */
export function parseDictdIndex(text: string, dataLength: number): DictdIndexEntry[] {
  const entries: DictdIndexEntry[] = [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  else if (lines.length > 0) throw new DictionaryFormatError(lines.length, "the index ends inside a line (truncated?)");
  lines.forEach((line, i) => {
    const fields = line.split("\t");
    const offset = base64Number(fields[1] ?? "");
    const length = base64Number(fields[2] ?? "");
    if (fields.length !== 3 || offset === null || length === null)
      throw new DictionaryFormatError(i + 1, "expected a key, an offset and a length separated by tabs");
    if (offset + length > dataLength)
      throw new DictionaryFormatError(i + 1, `the entry lies beyond the end of the data (${dataLength} bytes)`);
    entries.push({ key: fields[0]!, offset, length });
  });
  return entries;
}

/** The `.dict.dz` unpacked; a truncated or damaged one is refused. */
export function unpackDictdData(packed: Buffer): Buffer {
  try {
    return gunzipSync(packed);
  } catch (error) {
    throw new DictionaryFormatError(null, `the .dict.dz is damaged or truncated (${(error as Error).message})`);
  }
}

const strip = (text: string) =>
  text
    .replace(/\/[^/]*\//g, " ") // pronunciations
    .replace(/<[^>]*>/g, " ") // grammar tags
    .replace(/\[[^\]]*\]/g, " ") // usage labels, JMdict priority tags
    .replace(/\{[^}]*\}/g, " ") // cross references
    .replace(/\s+/g, " ")
    .trim();

/** The part of speech the first line's tags name ("<masc, n, sg>", "<v, intr>"), or JMdict's "(noun (common) …)". */
function partOfSpeechIn(text: string): ParsedEntry["partOfSpeech"] {
  for (const tag of text.match(/<([^>]*)>/g) ?? [])
    for (const name of tag.slice(1, -1).split(/,\s*/)) {
      const part = partOfSpeechOf(name.trim());
      if (part) return part;
    }
  const jmdict = /^\d*\.?\s*\((noun|verb|adjective|adverb|pronoun|conjunction|interjection|particle)/.exec(text);
  return jmdict ? partOfSpeechOf(jmdict[1] === "adjective" ? "adj" : jmdict[1]!) : null;
}

const NOT_A_GLOSS = /^(see:|synonyms?:|note:|antonyms?:|"|\d+\.\s*$|\(.*\)$)/i;

/** One entry's text → its headwords, reading, part of speech and glosses. */
export function readDictdEntry(text: string): {
  headwords: string[];
  reading: string | null;
  entry: Omit<ParsedEntry, "headword">;
  see: string[];
} {
  const [first = "", ...rest] = text.split("\n");
  const written = first
    .replace(/\/[^/]*\//g, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/\([^)]*\)/g, " ")
    .split(/,\s+/)
    .map(strip)
    .filter((part) => part.length > 0 && part.length <= MAX_HEADWORD_LENGTH);
  const kana = written.filter((word) => /^[\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u.test(word));
  const glosses: string[] = [];
  let partOfSpeech = partOfSpeechIn(first);
  for (const raw of rest) {
    // Examples and notes are indented by more than one space; senses start at the margin (or after one space).
    if (/^\s{2,}/.test(raw) || !raw.trim()) continue;
    const line = raw.trim().replace(/^\d+\.\s*/, "");
    partOfSpeech ??= partOfSpeechIn(line);
    if (NOT_A_GLOSS.test(line)) continue;
    const gloss = strip(line.replace(/^\((?:[^()]|\([^()]*\))*\)\s*/, "")).replace(/\s+([,;])/g, "$1");
    if (gloss) glosses.push(gloss);
    if (glosses.length === MAX_GLOSSES) break;
  }
  const see = [...(/^ see: (.*)$/m.exec(text)?.[1] ?? "").matchAll(/\{([^}]*)\}/g)].map((match) => match[1]!);
  return {
    see,
    headwords: written,
    reading: kana.length > 0 && kana.length < written.length ? kana[0]! : null,
    entry: { lemma: null, partOfSpeech, reading: null, glosses },
  };
}

/**
 * A dictd dictionary's entries, each under every headword its first line names. `reversed` reads an English → X
 * dictionary as X → English: each gloss becomes a headword glossed by the English word.
 */
export function parseDictd(indexText: string, packed: Buffer, options: { reversed?: boolean } = {}): Parsed {
  const data = unpackDictdData(packed);
  const index = parseDictdIndex(indexText, data.length);
  const seen = new Set<number>();
  const byHeadword = new Map<string, ParsedEntry>();
  const forms = new Map<string, string>();
  let skipped = 0;
  for (const { key, offset, length } of index) {
    if (key.startsWith("00database") || key.startsWith("00-database") || seen.has(offset)) continue;
    seen.add(offset);
    const { headwords, reading, entry, see } = readDictdEntry(data.subarray(offset, offset + length).toString("utf8"));
    if (headwords.length === 0 || entry.glosses.length === 0) {
      skipped++;
      continue;
    }
    if (options.reversed) {
      for (const gloss of entry.glosses.flatMap((line) => line.split(/[,;]\s*/)))
        addReversed(byHeadword, gloss.trim(), headwords[0]!, entry.partOfSpeech);
      continue;
    }
    formsNamedIn(see, forms, headwords[0]!);
    for (const headword of headwords) {
      // One entry per headword: a dictionary with a record per sense ("schlafen" has three) gets them merged.
      const existing = byHeadword.get(headword);
      if (!existing)
        byHeadword.set(headword, {
          headword,
          ...entry,
          glosses: [...entry.glosses],
          reading: headword === reading ? null : reading,
        });
      else
        for (const gloss of entry.glosses)
          if (existing.glosses.length < MAX_GLOSSES && !existing.glosses.includes(gloss)) existing.glosses.push(gloss);
    }
  }
  const formEntries: ParsedEntry[] = [];
  for (const [form, lemma] of forms)
    if (byHeadword.get(lemma)?.partOfSpeech === "verb" && form !== lemma)
      formEntries.push({ headword: form, lemma, partOfSpeech: "verb", reading: null, glosses: [] });
  return { entries: [...byHeadword.values(), ...formEntries], skipped };
}

/** German verb forms with their pronoun, as Ding's references list them: "er/sie schläft", "ich/er/sie schlief". */
const PARTICIPLE = /^\p{Ll}*ge\p{Ll}{2,}(?:t|en)$|^(?:über|unter|be|ver|er|zer|ent|emp)\p{Ll}{2,}(?:t|en)$/u;
const PRONOUN_FORM = /^(?:ich|du|er\/sie|ich\/er\/sie|wir|ihr|wir\/sie|sie) (\p{L}+)$/u;

/**
 * The forms an entry's references name with their pronoun belong to its first reference, the verb (the entry of
 * "geschlafen" refers to "schlafen", then "du schläfst", "er/sie schläft", "ich/er/sie schlief"), and so does the
 * entry's own headword when it is a participle.
 */
function formsNamedIn(see: readonly string[], forms: Map<string, string>, headword: string) {
  const verb = see[0];
  if (!verb || !/^\p{L}+n$/u.test(verb)) return;
  // The entry of a participle ("gemacht", "übernommen", "vorbeigekommen") refers to its verb first.
  if (PARTICIPLE.test(headword) && !forms.has(headword)) forms.set(headword, verb);
  for (const reference of see) {
    const form = PRONOUN_FORM.exec(reference)?.[1];
    if (form && !forms.has(form)) forms.set(form, verb);
  }
}

function addReversed(
  map: Map<string, ParsedEntry>,
  headword: string,
  gloss: string,
  partOfSpeech: ParsedEntry["partOfSpeech"],
) {
  if (!headword || headword.length > MAX_HEADWORD_LENGTH || /^to$|^\(/.test(headword)) return;
  const existing = map.get(headword);
  if (!existing) map.set(headword, { headword, lemma: null, partOfSpeech, reading: null, glosses: [gloss] });
  else if (existing.glosses.length < MAX_GLOSSES && !existing.glosses.includes(gloss)) existing.glosses.push(gloss);
}

/** The short title and licence a dictd dictionary names in its "00databaseshort" and "00databaseinfo" entries. */
export function dictdInfo(indexText: string, packed: Buffer): { title: string | null; licence: string } {
  const data = unpackDictdData(packed);
  const text = (key: string) => {
    const line = indexText.split("\n").find((l) => l.startsWith(`${key}\t`));
    if (!line) return "";
    const [, offset, length] = line.split("\t");
    const start = base64Number(offset!) ?? 0;
    return data.subarray(start, start + (base64Number(length!) ?? 0)).toString("utf8");
  };
  const info = text("00databaseinfo");
  const title =
    text("00databaseshort")
      .replace(/^00-?database-?short\s*/i, "")
      .trim() || null;
  return { title, licence: licenceOf(info) };
}

function licenceOf(info: string): string {
  const flat = info.replace(/\s+/g, " ");
  if (/Creative Commons Attribution[- ]Share ?Alike 3\.0|CC[- ]BY[- ]SA[- ]3\.0/i.test(flat)) return "CC BY-SA 3.0";
  if (/Creative Commons Attribution[- ]Share ?Alike 4\.0|CC[- ]BY[- ]SA[- ]4\.0/i.test(flat)) return "CC BY-SA 4.0";
  if (/Creative Commons Attribution[- ]Share ?Alike|CC[- ]BY[- ]SA/i.test(flat)) return "CC BY-SA";
  if (/GNU General Public License,? ver(sion|\.)? 3/i.test(flat)) return "GPL-3.0-or-later";
  if (/GNU General Public License/i.test(flat)) return "GPL-2.0-or-later";
  if (/GNU Free Documentation License/i.test(flat)) return "GFDL";
  if (/EDRDG|JMdict/i.test(flat)) return "CC BY-SA 4.0 (EDRDG licence)";
  return "see the package's copyright file";
}
