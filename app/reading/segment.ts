/**
 * Words of a text found by the platform (`Intl.Segmenter`, granularity `word`, in the text's language), so scripts
 * written without spaces (Chinese, Japanese, Thai) split into words too. Punctuation and numbers are not words.
 */

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
};

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

/** Lower case by the rules of the language (Turkish İ → i, I → ı). */
export const lowerFor = (language: string, text: string) => text.toLocaleLowerCase(language);

/** A segment is a word when the segmenter says so and it holds letters but no digits (numbers, times are not words). */
const isWord = (segment: Intl.SegmentData) =>
  segment.isWordLike === true && LETTER.test(segment.segment) && !DIGIT.test(segment.segment);

/** The words of a short text (a term), lower-cased. */
export function wordsOf(language: string, text: string): string[] {
  const words: string[] = [];
  for (const segment of segmenter(wordSegmenters, language, "word").segment(text))
    if (isWord(segment)) words.push(lowerFor(language, segment.segment));
  return words;
}

/** A text as paragraphs (its non-empty lines) of sentences of pieces, every word numbered from 0. */
export function segmentText(language: string, body: string): Segmented {
  const words: string[] = [];
  const joined: boolean[] = [];
  const paragraphs: Paragraph[] = [];
  const sentences = segmenter(sentenceSegmenters, language, "sentence");
  const wordSegmenter = segmenter(wordSegmenters, language, "word");
  for (const line of body.split(/\r?\n/)) {
    if (SPACE_ONLY.test(line)) continue;
    const paragraph: Paragraph = [];
    for (const { segment: sentenceText } of sentences.segment(line.trim())) {
      const pieces: Piece[] = [];
      let between = "";
      let first = true;
      for (const segment of wordSegmenter.segment(sentenceText)) {
        if (!isWord(segment)) {
          between += segment.segment;
          const last = pieces.at(-1);
          if (typeof last === "string") pieces[pieces.length - 1] = last + segment.segment;
          else pieces.push(segment.segment);
          continue;
        }
        if (!first) joined[words.length - 1] = SPACE_ONLY.test(between);
        first = false;
        between = "";
        pieces.push({ text: segment.segment, word: words.length });
        words.push(lowerFor(language, segment.segment));
        joined.push(false);
      }
      paragraph.push({ text: sentenceText.trim(), pieces });
    }
    paragraphs.push(paragraph);
  }
  return { paragraphs, words, joined };
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
