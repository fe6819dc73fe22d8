import { matchWords, statsOf, type TextStats, type VocabularyEntry, type WordMatch } from "./match";
import { pagesOf, segmenterOf, segmentText, type Segmented } from "./segment";
import { packRuby, READING_LANGUAGES, rubyOf, toHiragana, type Ruby } from "./readings";
import type { ReaderView, SelectedWord, ViewPiece, ViewWord } from "./view";

// The shipped samples, segmented once. A learner's texts are segmented when written (text-summaries.server.ts).
const segmentedTexts = new Map<string, Segmented>();
const CACHED_TEXTS = 50;

/** A sample text's words and sentences, from memory when it was segmented before. */
export function segmented(sample: string, language: string, body: string): Segmented {
  // Segmented again once the language's analyser is loaded.
  const key = `${sample}:${segmenterOf(language)}`;
  let found = segmentedTexts.get(key);
  if (found) return found;
  found = segmentText(language, body);
  if (segmentedTexts.size >= CACHED_TEXTS) segmentedTexts.delete(segmentedTexts.keys().next().value!);
  segmentedTexts.set(key, found);
  return found;
}

const distinct = new WeakMap<Segmented, string[]>();

/** The different words of a text (what the reader asks the database about), worked out once per segmented text. */
export function distinctWords(text: Segmented): string[] {
  let words = distinct.get(text);
  if (!words) distinct.set(text, (words = [...new Set(text.words)]));
  return words;
}

/** Statistics of a text for a learner's vocabulary. */
export function textStats(text: Segmented, language: string, vocabulary: VocabularyEntry[]): TextStats {
  return statsOf(matchWords(language, text, vocabulary));
}

/** A page number from the query: 1 when missing or not a page of the text. */
export function pageNumber(value: string | null, pages: number): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= pages ? page : 1;
}

/**
 * One page of a text with each word's stage, the text's statistics and the selected word (`word`, when it is on the
 * page). `lookupTerm` gives the term of the selected word, if it is one.
 */
export function readerView(
  input: {
    title: string;
    language: string;
    text: Segmented;
    vocabulary: VocabularyEntry[];
    matches?: WordMatch[];
    /** Show each word's reading over it, when the text has readings. */
    readings?: boolean;
  },
  query: URLSearchParams,
): { view: Omit<ReaderView, "selected">; selected: Omit<SelectedWord, "term"> | null; termId: string | null } {
  const { language, text } = input;
  const matches = input.matches ?? matchWords(language, text, input.vocabulary);
  const pages = pagesOf(text);
  const page = pageNumber(query.get("page"), pages.length);
  const current = pages[page - 1]!;
  const readings = input.readings === false ? null : (text.readings ?? null);
  const paragraphs = current.paragraphs.map(({ sentences }) =>
    sentences.flatMap((s) => grouped(s.pieces, matches, readings && { language, readings })),
  );

  let selected: Omit<SelectedWord, "term"> | null = null;
  let termId: string | null = null;
  const asked = Number(query.get("word") ?? NaN);
  if (query.has("word") && Number.isInteger(asked) && asked >= current.firstWord && asked <= current.lastWord) {
    const match = matches[asked]!;
    const sentence = current.paragraphs
      .flatMap((p) => p.sentences)
      .find((s) => s.pieces.some((piece) => typeof piece !== "string" && piece.word === match.start))!;
    selected = {
      word: match.start,
      text: unitText(sentence.pieces, matches, match.start),
      sentence: sentence.text.slice(0, 500),
      stage: match.stage,
      reading: readingOfUnit(language, sentence.pieces, match, text.readings),
    };
    termId = match.termId;
  }
  return {
    view: { title: input.title, language, page, pages: pages.length, paragraphs, stats: statsOf(matches) },
    selected,
    termId,
  };
}

/**
 * A word's (or a multi-word unit's) reading from the text's readings, as a new term takes it: kana in hiragana for
 * Japanese (a word in kana is its own reading), pinyin syllables for Chinese; "" when the text has none for it.
 */
function readingOfUnit(
  language: string,
  pieces: Segmented["paragraphs"][0][0]["pieces"],
  match: WordMatch,
  readings: (string | null)[] | null | undefined,
): string {
  if (!readings || !READING_LANGUAGES.has(language)) return "";
  const words = pieces.filter(
    (piece) => typeof piece !== "string" && piece.word >= match.start && piece.word < match.start + match.length,
  ) as { text: string; word: number }[];
  if (!words.some((word) => readings[word.word])) return "";
  return language === "ja"
    ? words.map((word) => toHiragana(readings[word.word] ?? word.text)).join("")
    : words
        .map((word) => readings[word.word] ?? "")
        .filter(Boolean)
        .join(" ");
}

/**
 * The words of a multi-word match joined into one piece, with the spaces between them; with `readings`, each piece
 * that has any carries its ruby (the readings of its words, nothing over what lies between them).
 */
function grouped(
  pieces: Segmented["paragraphs"][0][0]["pieces"],
  matches: WordMatch[],
  readings: { language: string; readings: (string | null)[] } | null = null,
): ViewPiece[] {
  const out: ViewPiece[] = [];
  const rubyFor = (piece: { text: string; word: number }): Ruby =>
    (readings && rubyOf(readings.language, piece.text, readings.readings[piece.word])) ?? [[piece.text, ""]];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (typeof piece === "string") {
      out.push(piece);
      continue;
    }
    const match = matches[piece.word]!;
    let text = piece.text;
    const ruby = readings ? rubyFor(piece) : null;
    const end = match.start + match.length - 1;
    while (match.length > 1 && i + 1 < pieces.length) {
      const next = pieces[i + 1]!;
      if (typeof next !== "string" && next.word > end) break;
      text += typeof next === "string" ? next : next.text;
      ruby?.push(...(typeof next === "string" ? [[next, ""] as [string, string]] : rubyFor(next)));
      i++;
      if (typeof next !== "string" && next.word === end) break;
    }
    const unit: ViewWord = { text, word: match.start, stage: match.stage, term: match.termId !== null };
    if (ruby?.some(([, rt]) => rt)) unit.ruby = packRuby(ruby);
    out.push(unit);
  }
  return out;
}

function unitText(pieces: Segmented["paragraphs"][0][0]["pieces"], matches: WordMatch[], start: number): string {
  const unit = grouped(pieces, matches).find((piece) => typeof piece !== "string" && piece.word === start);
  return typeof unit === "object" ? unit.text : "";
}
