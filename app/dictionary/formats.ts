// Plain `node` runs this file (scripts/dict-import.ts): relative imports carry `.ts`, and nothing here needs Vite.
import { PARTS_OF_SPEECH, type PartOfSpeech } from "../learning/vocabulary.ts";

/**
 * Readers of the open dictionary formats `npm run dict:import` loads. Each reads a whole file and returns its entries,
 * or throws a `DictionaryFormatError` naming the first line it cannot read: an import either loads a whole file or
 * changes nothing.
 */

export const FORMATS = ["tsv", "wiktionary", "cedict", "jmdict", "jmdict-json"] as const;
export type Format = (typeof FORMATS)[number];

export type ParsedEntry = {
  headword: string;
  /** The base form when the headword is an inflected one ("Hunde" → "Hund"); glosses may then be empty. */
  lemma: string | null;
  partOfSpeech: PartOfSpeech | null;
  /** Pinyin (CC-CEDICT), kana (JMdict). */
  reading: string | null;
  glosses: string[];
};

export type Parsed = {
  entries: ParsedEntry[];
  /** Lines or records read that hold no entry for this direction (no gloss in the target language, another language). */
  skipped: number;
};

export class DictionaryFormatError extends Error {
  readonly line: number | null;
  constructor(line: number | null, problem: string) {
    super(line === null ? problem : `line ${line}: ${problem}`);
    this.name = "DictionaryFormatError";
    this.line = line;
  }
}

/** At most this many glosses per entry, each at most as long as a term's meaning may be. */
export const MAX_GLOSSES = 12;
export const MAX_GLOSS_LENGTH = 500;
export const MAX_HEADWORD_LENGTH = 200;

const clean = (value: string) => value.replace(/\s+/g, " ").trim();

function glossesOf(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const glosses: string[] = [];
  for (const value of values) {
    const gloss = clean(value).slice(0, MAX_GLOSS_LENGTH);
    if (!gloss || seen.has(gloss)) continue;
    seen.add(gloss);
    glosses.push(gloss);
    if (glosses.length === MAX_GLOSSES) break;
  }
  return glosses;
}

/** Names of parts of speech in the formats (Wiktionary's, JMdict's entity names, common abbreviations) → ours. */
const PART_NAMES: Record<string, PartOfSpeech> = {
  n: "noun",
  noun: "noun",
  name: "proper_noun",
  pn: "pronoun",
  pron: "pronoun",
  v: "verb",
  vb: "verb",
  verb: "verb",
  adj: "adjective",
  adv: "adverb",
  prep: "adposition",
  postp: "adposition",
  conj: "coordinating_conjunction",
  int: "interjection",
  intj: "interjection",
  interj: "interjection",
  prt: "particle",
  part: "particle",
  num: "numeral",
  aux: "auxiliary",
  det: "determiner",
  article: "determiner",
  propn: "proper_noun",
  cconj: "coordinating_conjunction",
  sconj: "coordinating_conjunction",
  punct: "punctuation",
  ctr: "noun",
};

/** Our part of speech for a format's name of one ("adj-i" → adjective, "v5k" → verb), or null. */
export function partOfSpeechOf(name: string | null | undefined): PartOfSpeech | null {
  if (!name) return null;
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[.\s]+$/, "");
  if ((PARTS_OF_SPEECH as readonly string[]).includes(key)) return key as PartOfSpeech;
  if (PART_NAMES[key]) return PART_NAMES[key];
  if (/^adj/.test(key)) return "adjective";
  if (/^adv/.test(key)) return "adverb";
  if (/^v(?:[0-9]|s|k|z|i|t|-)/.test(key)) return "verb";
  if (/^aux/.test(key)) return "auxiliary";
  if (/^n-/.test(key)) return "noun";
  return null;
}

const linesOf = (text: string) => text.replace(/^\uFEFF/, "").split(/\r?\n/);

function headwordOf(value: unknown, line: number, what = "headword"): string {
  if (typeof value !== "string" || !clean(value)) throw new DictionaryFormatError(line, `no ${what}`);
  const headword = clean(value);
  if (headword.length > MAX_HEADWORD_LENGTH)
    throw new DictionaryFormatError(line, `${what} longer than ${MAX_HEADWORD_LENGTH} characters`);
  return headword;
}

/**
 * Tab-separated lines: headword, gloss, then optionally part of speech and lemma. Several glosses in one cell are
 * separated by ";". Empty lines and lines starting with "#" are skipped.
 */
export function parseTsv(text: string): Parsed {
  const entries: ParsedEntry[] = [];
  linesOf(text).forEach((raw, index) => {
    const line = index + 1;
    if (!raw.trim() || raw.startsWith("#")) return;
    const cells = raw.split("\t");
    if (cells.length < 2) throw new DictionaryFormatError(line, "expected a headword, a tab and a gloss");
    if (cells.length > 4)
      throw new DictionaryFormatError(line, `expected at most 4 tab-separated cells, found ${cells.length}`);
    const headword = headwordOf(cells[0], line);
    const glosses = glossesOf(cells[1]!.split(";"));
    const lemma = cells[3]?.trim() ? headwordOf(cells[3], line, "lemma") : null;
    if (glosses.length === 0 && !lemma) throw new DictionaryFormatError(line, "no gloss");
    entries.push({
      headword,
      lemma: lemma && lemma !== headword ? lemma : null,
      partOfSpeech: partOfSpeechOf(cells[2]),
      reading: null,
      glosses,
    });
  });
  return { entries, skipped: 0 };
}

/** Inflection-table rows of a Wiktionary extract that are not forms of the word. */
const NOT_FORMS = new Set(["table-tags", "inflection-template", "class", "romanization", "canonical", "auxiliary"]);

/**
 * Wiktionary extracts as JSON lines, one entry per line as kaikki.org/wiktextract writes them:
 * `{"word":"Hund","lang_code":"de","pos":"noun","senses":[{"glosses":["dog"]}],"forms":[{"form":"Hunde",…}]}`.
 * A sense that is a form of another word (`form_of`) names the lemma; each of `forms` becomes an entry pointing at the
 * word. An entry of another language than `from` (`lang_code`) or without any gloss is skipped.
 */
export function parseWiktionary(text: string, from: string): Parsed {
  const entries: ParsedEntry[] = [];
  let skipped = 0;
  linesOf(text).forEach((raw, index) => {
    const line = index + 1;
    if (!raw.trim()) return;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(raw) as Record<string, unknown>;
    } catch (error) {
      throw new DictionaryFormatError(line, `not JSON (${(error as Error).message})`);
    }
    if (typeof record !== "object" || record === null || Array.isArray(record))
      throw new DictionaryFormatError(line, "not a JSON object");
    const word = headwordOf(record.word, line, '"word"');
    if (record.senses !== undefined && !Array.isArray(record.senses))
      throw new DictionaryFormatError(line, '"senses" is not a list');
    if (typeof record.lang_code === "string" && record.lang_code !== from) {
      skipped++;
      return;
    }
    const senses = (record.senses ?? []) as Record<string, unknown>[];
    const partOfSpeech = partOfSpeechOf(typeof record.pos === "string" ? record.pos : null);
    const glosses: string[] = [];
    let lemma: string | null = null;
    for (const sense of senses) {
      if (typeof sense !== "object" || sense === null)
        throw new DictionaryFormatError(line, "a sense is not an object");
      const list = sense.glosses ?? sense.raw_glosses ?? [];
      if (!Array.isArray(list)) throw new DictionaryFormatError(line, '"glosses" is not a list');
      for (const gloss of list) if (typeof gloss === "string") glosses.push(gloss);
      const formOf = Array.isArray(sense.form_of) ? (sense.form_of[0] as { word?: unknown } | undefined) : undefined;
      if (!lemma && typeof formOf?.word === "string" && clean(formOf.word)) lemma = clean(formOf.word);
    }
    const own = glossesOf(glosses);
    if (own.length === 0 && !lemma) {
      skipped++;
      return;
    }
    entries.push({ headword: word, lemma: lemma !== word ? lemma : null, partOfSpeech, reading: null, glosses: own });
    if (!Array.isArray(record.forms)) return;
    const seen = new Set([word]);
    for (const item of record.forms as { form?: unknown; tags?: unknown }[]) {
      const form = typeof item?.form === "string" ? clean(item.form) : "";
      const tags = Array.isArray(item?.tags) ? (item.tags as unknown[]) : [];
      if (!form || form.length > MAX_HEADWORD_LENGTH || seen.has(form) || form === "-") continue;
      if (tags.some((tag) => typeof tag === "string" && NOT_FORMS.has(tag))) continue;
      seen.add(form);
      entries.push({ headword: form, lemma: word, partOfSpeech, reading: null, glosses: [] });
    }
  });
  return { entries, skipped };
}

const CEDICT_LINE = /^(\S+) (\S+) \[([^\]]*)\] \/(.*)\/\s*$/;

/** Pinyin with tone numbers ("ni3 hao3") with tone marks ("nǐ hǎo"), as learners read it. */
export function pinyinMarks(numbered: string): string {
  const marks: Record<string, string> = {
    a: "āáǎà",
    e: "ēéěè",
    i: "īíǐì",
    o: "ōóǒò",
    u: "ūúǔù",
    ü: "ǖǘǚǜ",
  };
  return numbered
    .split(" ")
    .map((syllable) => {
      const match = /^([a-zü:]+)([1-5])$/i.exec(syllable.replace(/u:/gi, "ü"));
      if (!match) return syllable.replace(/u:/gi, "ü");
      const [, letters, tone] = match as unknown as [string, string, string];
      if (tone === "5") return letters;
      const lower = letters.toLowerCase();
      // The mark goes on a or e; on the o of "ou"; else on the last vowel.
      let at = lower.search(/[ae]/);
      if (at < 0) at = lower.indexOf("ou");
      if (at < 0) {
        const vowels = [...lower.matchAll(/[iouü]/g)];
        at = vowels.length ? vowels[vowels.length - 1]!.index! : -1;
      }
      if (at < 0) return letters;
      const vowel = lower[at]!;
      const marked = marks[vowel]![Number(tone) - 1]!;
      const cased = letters[at] === vowel ? marked : marked.toUpperCase();
      return letters.slice(0, at) + cased + letters.slice(at + 1);
    })
    .join(" ");
}

/**
 * CC-CEDICT: `Traditional Simplified [pin1 yin1] /gloss/gloss/` per line, "#" lines are comments. The simplified and,
 * when it differs, the traditional form each become an entry, with the pinyin in tone marks as the reading.
 */
export function parseCedict(text: string): Parsed {
  const entries: ParsedEntry[] = [];
  linesOf(text).forEach((raw, index) => {
    const line = index + 1;
    if (!raw.trim() || raw.startsWith("#")) return;
    const match = CEDICT_LINE.exec(raw);
    if (!match)
      throw new DictionaryFormatError(line, "expected `Traditional Simplified [pin1 yin1] /gloss/gloss/` (CC-CEDICT)");
    const [, traditional, simplified, pinyin, rest] = match as unknown as [string, string, string, string, string];
    const glosses = glossesOf(rest.split("/"));
    if (glosses.length === 0) throw new DictionaryFormatError(line, "no gloss between the slashes");
    const reading = pinyinMarks(clean(pinyin)) || null;
    const entry = { lemma: null, partOfSpeech: null, reading, glosses };
    entries.push({ headword: headwordOf(simplified, line), ...entry });
    if (traditional !== simplified) entries.push({ headword: headwordOf(traditional, line), ...entry });
  });
  return { entries, skipped: 0 };
}

/** JMdict names the language of a gloss in ISO 639-2 (bibliographic), English when it names none. */
const ISO_639_2: Record<string, string> = {
  en: "eng",
  de: "ger",
  fr: "fre",
  es: "spa",
  ru: "rus",
  uk: "ukr",
  nl: "dut",
  hu: "hun",
  sv: "swe",
  sl: "slv",
  it: "ita",
  pt: "por",
  tr: "tur",
  zh: "chi",
};
const glossLanguage = (to: string) => ISO_639_2[to] ?? to;

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const decodeXml = (value: string) =>
  value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
    return XML_ENTITIES[name] ?? whole;
  });
const elements = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => ({
    attributes: m[1] ?? "",
    text: m[2]!,
  }));

/** The entries of one JMdict word (XML or jmdict-simplified JSON, made alike): one per written form and per reading. */
function jmdictEntries(
  kanji: string[],
  kana: string[],
  senses: { partsOfSpeech: string[]; glosses: string[] }[],
): ParsedEntry[] {
  const glosses = glossesOf(senses.flatMap((sense) => sense.glosses));
  if (glosses.length === 0) return [];
  const partOfSpeech =
    senses.flatMap((sense) => sense.partsOfSpeech.map(partOfSpeechOf)).find((pos) => pos !== null) ?? null;
  const reading = kana[0] ?? null;
  const forms = [...new Set([...kanji, ...kana])];
  return forms.map((headword) => ({
    headword,
    lemma: null,
    partOfSpeech,
    reading: headword === reading ? null : reading,
    glosses,
  }));
}

/**
 * JMdict's XML (JMdict_e or the multilingual JMdict): per `<entry>`, the written forms (`<keb>`), the readings
 * (`<reb>`) and the senses' glosses in the target language (`<gloss>` without `xml:lang` is English). Part-of-speech
 * entities (`&n;`, `&v5k;`) are read by name, so the file's DTD need not be expanded.
 */
export function parseJmdictXml(text: string, to: string): Parsed {
  const entries: ParsedEntry[] = [];
  let skipped = 0;
  const language = glossLanguage(to);
  const starts = [...text.matchAll(/<entry>/g)];
  if (starts.length === 0) throw new DictionaryFormatError(null, "no <entry> found: not a JMdict XML file");
  const lineAt = lineCounter(text);
  starts.forEach((start, index) => {
    const from = start.index!;
    const end = text.indexOf("</entry>", from);
    const next = starts[index + 1]?.index ?? text.length;
    const line = lineAt(from);
    if (end < 0 || end > next) throw new DictionaryFormatError(line, "<entry> is not closed by </entry>");
    const body = text.slice(from, end);
    const kanji = elements(body, "keb").map((e) => clean(decodeXml(e.text)));
    const kana = elements(body, "reb").map((e) => clean(decodeXml(e.text)));
    if (kana.length === 0) throw new DictionaryFormatError(line, "an entry without a reading (<reb>)");
    const senses = elements(body, "sense").map((sense) => ({
      partsOfSpeech: elements(sense.text, "pos").map((pos) => pos.text.replace(/^&|;$/g, "")),
      glosses: elements(sense.text, "gloss")
        .filter((gloss) => (/xml:lang="([^"]+)"/.exec(gloss.attributes)?.[1] ?? "eng") === language)
        .map((gloss) => decodeXml(gloss.text)),
    }));
    for (const headword of [...kanji, ...kana]) headwordOf(headword, line);
    const found = jmdictEntries(kanji, kana, senses);
    if (found.length === 0) skipped++;
    entries.push(...found);
  });
  return { entries, skipped };
}

/** The line (1-based) of a character offset, for offsets asked in increasing order. */
function lineCounter(text: string) {
  let line = 1;
  let at = 0;
  return (offset: number) => {
    for (; at < offset; at++) if (text.charCodeAt(at) === 10) line++;
    return line;
  };
}

type SimplifiedWord = {
  id?: unknown;
  kanji?: { text?: unknown }[];
  kana?: { text?: unknown }[];
  sense?: { partOfSpeech?: unknown; gloss?: { lang?: unknown; text?: unknown }[] }[];
};

/**
 * jmdict-simplified's JSON (`jmdict-eng-*.json`, `jmdict-all-*.json`): `{"words":[{"kanji":[{"text"}],
 * "kana":[{"text"}],"sense":[{"partOfSpeech":["n"],"gloss":[{"lang":"eng","text":"…"}]}]}]}`.
 */
export function parseJmdictJson(text: string, to: string): Parsed {
  let document: { words?: unknown };
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, "")) as { words?: unknown };
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const line = /line (\d+)/.exec(message);
    throw new DictionaryFormatError(
      line ? Number(line[1]) : position ? lineCounter(text)(Number(position[1])) : null,
      `not JSON (${message})`,
    );
  }
  if (!Array.isArray(document?.words))
    throw new DictionaryFormatError(null, 'no "words" list: not a jmdict-simplified file');
  const language = glossLanguage(to);
  const entries: ParsedEntry[] = [];
  let skipped = 0;
  (document.words as SimplifiedWord[]).forEach((word, index) => {
    const fail = (problem: string): never => {
      throw new DictionaryFormatError(
        null,
        `word ${index + 1}${word?.id ? ` (id ${String(word.id)})` : ""}: ${problem}`,
      );
    };
    if (typeof word !== "object" || word === null) fail("not an object");
    if (!Array.isArray(word.kana) || word.kana.length === 0) fail('no "kana"');
    if (!Array.isArray(word.sense)) fail('no "sense" list');
    const texts = (list: { text?: unknown }[] | undefined) =>
      (list ?? []).map((item) => (typeof item?.text === "string" ? clean(item.text) : fail("a form without text")));
    const kanji = texts(word.kanji);
    const kana = texts(word.kana);
    const senses = word.sense!.map((sense) => ({
      partsOfSpeech: Array.isArray(sense?.partOfSpeech) ? sense.partOfSpeech.map(String) : [],
      glosses: (Array.isArray(sense?.gloss) ? sense.gloss : [])
        .filter((gloss) => (gloss?.lang ?? "eng") === language && typeof gloss?.text === "string")
        .map((gloss) => gloss.text as string),
    }));
    const found = jmdictEntries(kanji, kana, senses);
    if (found.length === 0) skipped++;
    entries.push(...found);
  });
  return { entries, skipped };
}

/** The format of a file from its name, else from its first characters. */
export function detectFormat(fileName: string, head: string): Format {
  const name = fileName.toLowerCase();
  if (/cedict/.test(name) || name.endsWith(".u8")) return "cedict";
  if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) return "wiktionary";
  if (name.endsWith(".xml") || /jmdict(?!.*\.json)/.test(name)) return "jmdict";
  if (name.endsWith(".json")) return "jmdict-json";
  if (name.endsWith(".tsv")) return "tsv";
  const start = head.replace(/^\uFEFF/, "").trimStart();
  if (start.startsWith("<")) return "jmdict";
  if (start.startsWith("{")) return /^\{[^\n]*\}\s*(\n|$)/.test(start) ? "wiktionary" : "jmdict-json";
  if (start.includes("CC-CEDICT") || CEDICT_LINE.test(start.split("\n")[0] ?? "")) return "cedict";
  return "tsv";
}

export function parseDictionary(format: Format, text: string, from: string, to: string): Parsed {
  switch (format) {
    case "tsv":
      return parseTsv(text);
    case "wiktionary":
      return parseWiktionary(text, from);
    case "cedict":
      return parseCedict(text);
    case "jmdict":
      return parseJmdictXml(text, to);
    case "jmdict-json":
      return parseJmdictJson(text, to);
  }
}
