import { lowerFor, wordsOf, type Segmented } from "./segment";
import type { Stage } from "../learning/vocabulary";
import { withoutArticle } from "../learning/cloze";

/** What a word of a text is to the learner: not a term yet (new), a term at its stage, or ignored (known). */
export type WordStage = "new" | Stage | "ignored";
export const WORD_STAGES: readonly WordStage[] = ["new", "tolearn", "inprogress", "needsreview", "learned", "ignored"];

/** An entry of the learner's vocabulary in one language: a term (with its id) or an ignored word. */
export type VocabularyEntry = { text: string; stage: Stage | "ignored"; termId: string | null };

/** The match of a word: its stage, its term, and the multi-word unit it belongs to (start and length in words). */
export type WordMatch = { stage: WordStage; termId: string | null; start: number; length: number };

/** Scripts written without spaces: a term there is segmented like the text; elsewhere split at white space. */
export const NO_SPACES = new Set(["zh", "ja", "th", "lo", "km", "my", "bo", "dz"]);
const PLAIN_WORD = /^[\p{L}\p{M}'’]+$/u;

type Unit = { words: string[]; entry: VocabularyEntry };

function unitOf(language: string, entry: VocabularyEntry): string[] {
  const lower = lowerFor(language, entry.text.trim());
  if (!NO_SPACES.has(language) && PLAIN_WORD.test(lower)) return [lower];
  return wordsOf(language, lower);
}

/**
 * Matches every word of a text against the learner's vocabulary, case-insensitively for the language. Multi-word terms
 * ("ice cream") win over their single words, the longest first; a term wins over an ignored word of the same text. A
 * term stored with its article ("der Hund", "la casa") also marks the word alone ("Hund"), unless that word is a term
 * or ignored word of its own.
 */
export function matchWords(language: string, text: Segmented, vocabulary: VocabularyEntry[]): WordMatch[] {
  const single = new Map<string, VocabularyEntry>();
  const multi = new Map<string, Unit[]>();
  const byArticle = new Map<string, VocabularyEntry>();
  for (const entry of vocabulary) {
    const words = unitOf(language, entry);
    if (words.length === 0) continue;
    const core = withoutArticle(entry.text, language);
    if (words.length > 1 && core !== entry.text.trim()) {
      const [coreWord, ...more] = unitOf(language, { ...entry, text: core });
      if (coreWord && more.length === 0 && !byArticle.has(coreWord)) byArticle.set(coreWord, entry);
    }
    if (words.length === 1) {
      const known = single.get(words[0]!);
      if (!known || (known.termId === null && entry.termId !== null)) single.set(words[0]!, entry);
      continue;
    }
    const list = multi.get(words[0]!);
    if (list) list.push({ words, entry });
    else multi.set(words[0]!, [{ words, entry }]);
  }
  for (const [word, entry] of byArticle) if (!single.has(word)) single.set(word, entry);
  for (const list of multi.values()) list.sort((a, b) => b.words.length - a.words.length);

  const { words, joined } = text;
  const matches: WordMatch[] = new Array(words.length);
  for (let i = 0; i < words.length;) {
    const unit = multi.get(words[i]!)?.find((candidate) => fits(candidate.words, words, joined, i));
    if (unit) {
      const match = { stage: unit.entry.stage, termId: unit.entry.termId, start: i, length: unit.words.length };
      for (let k = 0; k < unit.words.length; k++) matches[i + k] = match;
      i += unit.words.length;
      continue;
    }
    const entry = single.get(words[i]!);
    matches[i] = { stage: entry?.stage ?? "new", termId: entry?.termId ?? null, start: i, length: 1 };
    i++;
  }
  return matches;
}

function fits(unit: string[], words: string[], joined: boolean[], at: number): boolean {
  if (at + unit.length > words.length) return false;
  for (let k = 0; k < unit.length; k++) {
    if (words[at + k] !== unit[k]) return false;
    if (k < unit.length - 1 && !joined[at + k]) return false;
  }
  return true;
}

export type TextStats = { words: number; unknown: number; learning: number; known: number; knownShare: number };

/** Running words by what the learner knows: unknown (new), learning (a term not yet learned), known (learned, ignored). */
export function statsOf(matches: WordMatch[]): TextStats {
  let unknown = 0;
  let known = 0;
  for (const match of matches) {
    if (match.stage === "new") unknown++;
    else if (match.stage === "learned" || match.stage === "ignored") known++;
  }
  const words = matches.length;
  return { words, unknown, learning: words - unknown - known, known, knownShare: words ? known / words : 0 };
}
