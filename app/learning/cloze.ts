/** Finds a term in its example so a cloze card can blank it: through its article, capitalisation and inflections. */
import { memo } from "../util/memo.ts";

export type Stemmer = (word: string) => string;

/**
 * Articles (and English's infinitive "to") a learner may store in front of a term: "der Hund", "la casa", "l'eau",
 * "to run". The sentence may use another form of the article ("den Hund") or none at all.
 */
const ARTICLES: Record<string, readonly string[]> = {
  de: ["der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines"],
  en: ["the", "a", "an", "to"],
  es: ["el", "la", "los", "las", "un", "una", "unos", "unas"],
  fr: ["le", "la", "les", "un", "une", "des", "du"],
  it: ["il", "lo", "la", "i", "gli", "le", "un", "uno", "una"],
  pt: ["o", "a", "os", "as", "um", "uma", "uns", "umas"],
  nl: ["de", "het", "een"],
  ca: ["el", "la", "els", "les", "un", "una"],
  sv: ["en", "ett"],
  da: ["en", "et"],
  nb: ["en", "ei", "et"],
  no: ["en", "ei", "et"],
};
/** Elided articles written against the word: French and Italian "l'", Italian "un'", Catalan "l'". */
const ELIDED = /^(?:l|un|d)['’](?=\p{L})/iu;

/** Languages written without spaces between words: a term is found inside a run of letters. */
const UNSPACED = new Set(["zh", "ja", "th", "lo", "km", "my", "bo", "dz"]);

const lower = (value: string, language: string) => {
  try {
    return value.toLocaleLowerCase(language);
  } catch {
    return value.toLowerCase();
  }
};

/** The term without a leading article: "der Hund" → "Hund", "l'eau" → "eau"; the term itself when it has none. */
export function withoutArticle(text: string, language: string): string {
  const trimmed = text.trim().replace(/\s+/g, " ");
  const elided = trimmed.replace(ELIDED, "");
  if (elided !== trimmed && elided) return elided;
  const [first, ...rest] = trimmed.split(" ");
  if (rest.length > 0 && ARTICLES[language]?.includes(lower(first!, language))) return rest.join(" ");
  return trimmed;
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The term as a pattern, any case, by its text. Only the term is compiled: a pattern with the letter classes around it
 * costs ~1 ms to compile (the Unicode tables), which a review of many learners' terms paid per card; the edges are
 * tested against one class compiled once.
 */
const pattern = memo(512, (text) => new RegExp(escapeRegExp(text), "giu"));
const WORD_CHARACTER = /[\p{L}\p{M}\p{N}]/u;

/** Whether the code point ending just before `index` (a surrogate pair read whole) is a letter, mark or digit. */
function wordBefore(value: string, index: number) {
  if (index <= 0) return false;
  const low = value.charCodeAt(index - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return WORD_CHARACTER.test(String.fromCodePoint(value.codePointAt(start)!));
}

const wordAt = (value: string, index: number) =>
  index < value.length && WORD_CHARACTER.test(String.fromCodePoint(value.codePointAt(index)!));

/** The term as a whole word (inside a run of letters for languages without spaces): its first such place. */
function literal(sentence: string, text: string, language: string) {
  const found = pattern(text);
  found.lastIndex = 0;
  for (let match = found.exec(sentence); match; match = found.exec(sentence)) {
    const end = match.index + match[0].length;
    if (UNSPACED.has(language) || (!wordBefore(sentence, match.index) && !wordAt(sentence, end)))
      return { start: match.index, end };
    // An overlapping place may still stand alone: look again one code point further on.
    found.lastIndex = match.index + (sentence.codePointAt(match.index)! > 0xffff ? 2 : 1);
  }
  return null;
}

const segmenter = memo(64, (language) => {
  try {
    return new Intl.Segmenter(language, { granularity: "word" });
  } catch {
    return new Intl.Segmenter("und", { granularity: "word" });
  }
});

/** The same words by stem, in order ("Hunde" for "Hund", "evlerimiz" for "ev"); stems of one letter must match whole. */
function byStem(sentence: string, text: string, language: string, stem: Stemmer) {
  const words = [...segmenter(language).segment(sentence)].filter((s) => s.isWordLike);
  const wanted = text.split(" ").map((word) => lower(word, language));
  const same = (word: string, target: string) => {
    const w = lower(word, language);
    if (w === target) return true;
    const s = stem(target);
    return s.length >= 2 && stem(w) === s;
  };
  for (let i = 0; i + wanted.length <= words.length; i++) {
    if (wanted.every((target, j) => same(words[i + j]!.segment, target))) {
      const last = words[i + wanted.length - 1]!;
      return { start: words[i]!.index, end: last.index + last.segment.length };
    }
  }
  return null;
}

export type Cloze = { before: string; answer: string; after: string };

/**
 * A sentence with the term as a gap, or null when the term is not in it. Tried in order: the term as stored (whatever
 * its case), the term without its article, then word by word through the language's stemmer when there is one. The
 * answer is the form the sentence uses ("Hunde" for "der Hund").
 */
export function clozeOf(sentence: string, text: string, language = "und", stem?: Stemmer): Cloze | null {
  const term = text.trim().replace(/\s+/g, " ");
  if (!term) return null;
  const core = withoutArticle(term, language);
  const found =
    literal(sentence, term, language) ??
    (core !== term ? literal(sentence, core, language) : null) ??
    (stem && !UNSPACED.has(language) ? byStem(sentence, core, language, stem) : null);
  if (!found) return null;
  return {
    before: sentence.slice(0, found.start),
    answer: sentence.slice(found.start, found.end),
    after: sentence.slice(found.end),
  };
}
