/**
 * A line in pieces for a language's analyser: an analyser's work may grow faster than its input (kuromoji's with its
 * square), and a whole text may be one line, so no analyser is given more than ANALYSER_PIECE units at once.
 */
import type { AnalysedWord, Analyser } from "./segment";

/**
 * The most an analyser is given at once, in UTF-16 units: kuromoji's work and memory grow with the square of what it is
 * given between two of its own cuts (、 and 。), so a text of one long line is analysed in pieces of this length.
 */
export const ANALYSER_PIECE = 256;
const SENTENCE_END = /[。！？!?．｡]/u;
const BREAK = /[\p{P}\p{S}\s]/u;

/**
 * Where a line is cut for its analyser, as `[start, end)` pieces of at most `max` units that join to the whole line: a
 * line that fits is one piece; a longer one is cut after the last sentence end (。！？) within reach, else after the last
 * other punctuation or white space, and only where there is none at `max` (never inside a surrogate pair), so words
 * stay whole and ordinary text is cut at its sentences, as the analyser cuts it itself.
 */
export function piecesOf(line: string, max = ANALYSER_PIECE): [number, number][] {
  const pieces: [number, number][] = [];
  let start = 0;
  while (line.length - start > max) {
    let end = -1;
    let atBreak = -1;
    for (let cut = start + max; cut > start && end < 0; cut--) {
      const before = line[cut - 1]!;
      if (SENTENCE_END.test(before)) end = cut;
      else if (atBreak < 0 && BREAK.test(before)) atBreak = cut;
    }
    if (end < 0) end = atBreak;
    if (end < 0) {
      end = start + max;
      if (/[\uD800-\uDBFF]/.test(line[end - 1]!)) end--;
    }
    pieces.push([start, end]);
    start = end;
  }
  if (start < line.length || pieces.length === 0) pieces.push([start, line.length]);
  return pieces;
}

/** The words an analyser finds in a line, piece by piece (`piecesOf`), pausing (`yield`) after each piece but the last. */
export function* analysedLine(analyser: Analyser, line: string): Generator<void, AnalysedWord[]> {
  const words: AnalysedWord[] = [];
  const pieces = piecesOf(line);
  for (const [k, [start, end]] of pieces.entries()) {
    for (const word of analyser.words(line.slice(start, end))) words.push({ ...word, index: start + word.index });
    if (k < pieces.length - 1) yield;
  }
  return words;
}

/** The result of a generator run to its end at once. */
export const drained = <T>(steps: Generator<void, T>): T => {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
};
