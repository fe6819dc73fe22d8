/**
 * Words of a text found by the platform (`Intl.Segmenter`, granularity `word`, in the text's language), so scripts
 * written without spaces (Chinese, Japanese, Thai) split into words too. Punctuation and numbers are not words. Where
 * the server has an analyser for a language (Japanese, Chinese: analysers.server.ts), it finds the words instead, with
 * their readings, piece by piece (pieces.ts); sentences are still the platform's.
 */
import { analysedLine, drained } from "./pieces";

/** A run of text that is not a word (spaces, punctuation, numbers), or a word with its position in the whole text. */
export type Piece = string | { text: string; word: number };
export type Sentence = { text: string; pieces: Piece[] };
export type Paragraph = Sentence[];
export type Segmented = {
  paragraphs: Paragraph[];
  /** Every word of the text in order, lower-cased for the language. */
  words: string[];
  /** `gaps[i]`: only white space (or nothing) lies between word i and word i + 1 in one sentence. */
  joined: boolean[];
  /** Each word's reading (kana, pinyin), null where it has none; null when the analyser gives none (readings.ts). */
  readings?: (string | null)[] | null;
};

/** A word an analyser found in a line: where it starts in the line, its text, and its reading (null when none). */
export type AnalysedWord = { index: number; text: string; reading: string | null };

/** A server-side analyser of one language's words (the platform's segmenter is the fallback, named `intl`). */
export type Analyser = { id: string; words(line: string): AnalysedWord[] };

export const PLATFORM_SEGMENTER = "intl";
const analysers = new Map<string, Analyser>();

/** Installs (or, with null, removes) the analyser of a language. */
export function setAnalyser(language: string, analyser: Analyser | null): void {
  if (analyser) analysers.set(language, analyser);
  else analysers.delete(language);
}

/** What segments a language's texts now: its analyser's id, or the platform's segmenter. */
export const segmenterOf = (language: string) => analysers.get(language)?.id ?? PLATFORM_SEGMENTER;

const wordSegmenters = new Map<string, Intl.Segmenter>();
const sentenceSegmenters = new Map<string, Intl.Segmenter>();
const segmenter = (cache: Map<string, Intl.Segmenter>, language: string, granularity: "word" | "sentence") => {
  let found = cache.get(language);
  if (!found) {
    found = new Intl.Segmenter(language, { granularity });
    cache.set(language, found);
  }
  return found;
};

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const SPACE_ONLY = /^\s*$/u;

/**
 * The languages whose lower case differs from Unicode's default (SpecialCasing.txt's conditional mappings: Turkish and
 * Azeri dotted and dotless i, Lithuanian dots above); every other language gets the same from the cheaper toLowerCase.
 */
const OWN_LOWER_CASE = new Set(["tr", "az", "lt"]);

/** Lower case by the rules of the language (Turkish İ → i, I → ı). */
export const lowerFor = (language: string, text: string) =>
  OWN_LOWER_CASE.has(language) ? text.toLocaleLowerCase(language) : text.toLowerCase();

/** A word holds letters but no digits (numbers, times are not words). */
const isWordText = (text: string) => LETTER.test(text) && !DIGIT.test(text);

/** A segment is a word when the segmenter says so and it holds letters but no digits (numbers, times are not words). */
const isWord = (segment: Intl.SegmentData) => segment.isWordLike === true && isWordText(segment.segment);

/** The words of a short text (a term), lower-cased, cut as the language's texts are. */
export function wordsOf(language: string, text: string): string[] {
  const analyser = analysers.get(language);
  if (analyser)
    return drained(analysedLine(analyser, text))
      .filter((word) => isWordText(word.text))
      .map((word) => lowerFor(language, word.text));
  const words: string[] = [];
  for (const segment of segmenter(wordSegmenters, language, "word").segment(text))
    if (isWord(segment)) words.push(lowerFor(language, segment.segment));
  return words;
}

/**
 * Where the sentences and words of a text lie in its body, worked out once when the text is written and stored with it
 * (`texts.segments`): per paragraph, per sentence `[start, length, word offset, word length, …]`, sentence starts in
 * the body and word offsets in the sentence. Only the segmenter is slow; drawing the text again from these is not.
 */
export type Offsets = number[][][];

/** A text's segmentation: who made it, its offsets, and each word's reading when the analyser gives readings. */
export type Segmentation = { by: string; offsets: Offsets; readings: (string | null)[] | null };

/** How a segmentation is stored in `texts.segments`: the platform's as its bare offsets (as ever), others as JSON. */
export const storedSegmentation = (found: Segmentation) =>
  JSON.stringify(found.by === PLATFORM_SEGMENTER ? found.offsets : found);

export function parseSegmentation(stored: string): Segmentation {
  const value = JSON.parse(stored) as Offsets | Segmentation;
  return Array.isArray(value) ? { by: PLATFORM_SEGMENTER, offsets: value, readings: null } : value;
}

type Found = { index: number; segment: string; reading: string | null; word: boolean };

/**
 * Segments a text line by line, pausing (`yield`) after each line and after each piece of a long line an analyser cuts. The segmenters run once over the whole body, each
 * through one iterator: every call of `segment()` clones an ICU break iterator that only a garbage collection frees, on
 * the main thread, and a call per line and per sentence left thousands of them to free at once (a turn of the event loop
 * of ~100 ms after a long text of short lines). A line break ends every sentence and every word, so the sentences and
 * words found in the whole body are those found line by line; a sentence is cut to its line without its surrounding
 * white space, as when each line was segmented alone. A language's analyser, when installed, finds the words of each
 * line instead of the platform's word segmenter.
 */
function* offsetsOf(
  language: string,
  body: string,
  analyser: Analyser | null = analysers.get(language) ?? null,
): Generator<void, Segmentation> {
  const paragraphs: Offsets = [];
  const readings: (string | null)[] = [];
  let anyReading = false;
  const sentences = segmenter(sentenceSegmenters, language, "sentence").segment(body)[Symbol.iterator]();
  const platformWords = analyser ? null : segmenter(wordSegmenters, language, "word").segment(body)[Symbol.iterator]();
  let lineWords: Found[] = [];
  let nextInLine = 0;
  const nextWord = (): Found | undefined => {
    if (!platformWords) return lineWords[nextInLine++];
    const next = platformWords.next();
    return next.done
      ? undefined
      : { index: next.value.index, segment: next.value.segment, reading: null, word: isWord(next.value) };
  };
  let word = platformWords ? nextWord() : undefined;
  let sentence = sentences.next();
  const lineBreak = /\r?\n/g;
  for (let lineStart = 0; lineStart <= body.length;) {
    const found = lineBreak.exec(body);
    const lineEnd = found ? found.index : body.length;
    const line = body.slice(lineStart, lineEnd);
    const next = found ? found.index + found[0].length : body.length + 1;
    if (!SPACE_ONLY.test(line)) {
      const trimmed = line.trim();
      const base = lineStart + line.indexOf(trimmed);
      const top = base + trimmed.length;
      if (analyser) {
        lineWords = (yield* analysedLine(analyser, line)).map((w) => ({
          index: lineStart + w.index,
          segment: w.text,
          reading: w.reading,
          word: isWordText(w.text),
        }));
        nextInLine = 0;
        word = nextWord();
      }
      const paragraph: number[][] = [];
      for (; !sentence.done && sentence.value.index < top; sentence = sentences.next()) {
        const start = Math.max(sentence.value.index, base);
        const end = Math.min(sentence.value.index + sentence.value.segment.length, top);
        if (end <= start) continue;
        const spans = [start, end - start];
        for (; word && word.index < end; word = nextWord())
          if (word.index >= start && word.word) {
            spans.push(word.index - start, Math.min(word.segment.length, end - word.index));
            readings.push(word.reading);
            if (word.reading !== null) anyReading = true;
          }
        paragraph.push(spans);
      }
      paragraphs.push(paragraph);
    }
    lineStart = next;
    yield;
  }
  return { by: analyser?.id ?? PLATFORM_SEGMENTER, offsets: paragraphs, readings: anyReading ? readings : null };
}

/** The segmentation of a text at once (short texts, tests). */
export const segmentationNow = (language: string, body: string): Segmentation => drained(offsetsOf(language, body));

/** The offsets of a text at once (short texts, tests). */
export const segmentOffsetsNow = (language: string, body: string): Offsets => segmentationNow(language, body).offsets;

/** How long the analyser of a language may take over one text before the platform's segmenter cuts it instead. */
export const ANALYSIS_DEADLINE_MS = 5_000;

/**
 * The segmentation of a text, letting other requests run every few milliseconds: a long text of short lines takes the
 * segmenter half a second. When the language's analyser has not finished within `deadlineMs` (of the server's own
 * time, pauses included), the platform's segmenter cuts the text instead, without readings; the text is stored all the
 * same, and cut by the analyser again when next read (`by` names the platform's segmenter).
 */
export async function segmentationOf(
  language: string,
  body: string,
  sliceMs = 10,
  deadlineMs = ANALYSIS_DEADLINE_MS,
): Promise<Segmentation> {
  let steps = offsetsOf(language, body);
  let deadline = analysers.has(language) ? performance.now() + deadlineMs : Number.POSITIVE_INFINITY;
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() > deadline) {
      steps = offsetsOf(language, body, null);
      deadline = Number.POSITIVE_INFINITY;
      continue;
    }
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/** The offsets of a text, with pauses (see `segmentation`). */
export const segmentOffsets = async (language: string, body: string, sliceMs = 10): Promise<Offsets> =>
  (await segmentationOf(language, body, sliceMs)).offsets;

/** A text as paragraphs of sentences of pieces, every word numbered from 0, from its body and stored offsets. */
export function segmentedFrom(
  language: string,
  body: string,
  offsets: Offsets,
  readings: (string | null)[] | null = null,
): Segmented {
  const words: string[] = [];
  const joined: boolean[] = [];
  const paragraphs: Paragraph[] = offsets.map((paragraph) =>
    paragraph.map(([start = 0, length = 0, ...spans]) => {
      const sentenceText = body.slice(start, start + length);
      const pieces: Piece[] = [];
      let at = 0;
      for (let k = 0; k < spans.length; k += 2) {
        const offset = spans[k]!;
        const size = spans[k + 1]!;
        if (offset > at) {
          const between = sentenceText.slice(at, offset);
          pieces.push(between);
          if (k > 0) joined[words.length - 1] = SPACE_ONLY.test(between);
        } else if (k > 0) joined[words.length - 1] = true;
        const text = sentenceText.slice(offset, offset + size);
        pieces.push({ text, word: words.length });
        words.push(lowerFor(language, text));
        joined.push(false);
        at = offset + size;
      }
      if (at < sentenceText.length) pieces.push(sentenceText.slice(at));
      return { text: sentenceText.trim(), pieces };
    }),
  );
  return { paragraphs, words, joined, readings };
}

/** Only the words of a text and what lies between them, from its stored offsets: what matching needs, nothing more. */
export function wordsFrom(language: string, body: string, offsets: Offsets): Pick<Segmented, "words" | "joined"> {
  const words: string[] = [];
  const joined: boolean[] = [];
  for (const paragraph of offsets)
    for (const [start = 0, , ...spans] of paragraph) {
      let at = -1;
      for (let k = 0; k < spans.length; k += 2) {
        const offset = start + spans[k]!;
        if (at >= 0) joined[words.length - 1] = offset === at || SPACE_ONLY.test(body.slice(at, offset));
        words.push(lowerFor(language, body.slice(offset, offset + spans[k + 1]!)));
        joined.push(false);
        at = offset + spans[k + 1]!;
      }
    }
  return { words, joined };
}

/** A text as paragraphs (its non-empty lines) of sentences of pieces, every word numbered from 0. */
export function segmentText(language: string, body: string): Segmented {
  const { offsets, readings } = segmentationNow(language, body);
  return segmentedFrom(language, body, offsets, readings);
}

export const WORDS_PER_PAGE = 500;

/** A page of a long text: whole sentences, about WORDS_PER_PAGE words, in the paragraphs they belong to. */
export type Page = { paragraphs: { paragraph: number; sentences: Sentence[] }[]; firstWord: number; lastWord: number };

const wordCount = (sentence: Sentence) => sentence.pieces.reduce((n, p) => (typeof p === "string" ? n : n + 1), 0);

/** Splits a text into pages at sentence ends once a page holds WORDS_PER_PAGE words; a text has at least one page. */
export function pagesOf(text: Segmented, perPage = WORDS_PER_PAGE): Page[] {
  const pages: Page[] = [];
  let current: Page = { paragraphs: [], firstWord: 0, lastWord: -1 };
  let count = 0;
  text.paragraphs.forEach((paragraph, index) => {
    for (const sentence of paragraph) {
      if (count >= perPage) {
        pages.push(current);
        current = { paragraphs: [], firstWord: current.lastWord + 1, lastWord: current.lastWord };
        count = 0;
      }
      let slice = current.paragraphs.at(-1);
      if (slice?.paragraph !== index) current.paragraphs.push((slice = { paragraph: index, sentences: [] }));
      slice.sentences.push(sentence);
      const n = wordCount(sentence);
      count += n;
      current.lastWord += n;
    }
  });
  pages.push(current);
  return pages;
}
