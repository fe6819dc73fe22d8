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

function unitOf(language: string, entry: VocabularyEntry): string[] {
  const lower = lowerFor(language, entry.text.trim());
  if (!NO_SPACES.has(language) && PLAIN_WORD.test(lower)) return [lower];
  return wordsOf(language, lower);
}

/** Terms of several words as a tree of their words: the entry of a node is the unit that ends there. */
type Node = { entry: VocabularyEntry | null; next: Map<string, Node> };

/**
 * A learner's vocabulary in one language, ready to match texts against: single words by word, terms of several words
 * as a tree keyed word by word (in scripts without spaces too, where a term is segmented like the text), so matching a
 * text costs one look-up per word and at most one per word of the longest term that starts there, however many terms.
 */
export type VocabularyIndex = {
  language: string;
  single: Map<string, VocabularyEntry>;
  multi: Map<string, Node>;
  /** The word of a term stored with its article ("hund" of "der Hund"): it marks the word alone, after `single`. */
  byArticle: Map<string, VocabularyEntry>;
};

export const emptyIndex = (language: string): VocabularyIndex => ({
  language,
  single: new Map(),
  multi: new Map(),
  byArticle: new Map(),
});

/** Adds an entry; for the same words a term wins over an ignored word, otherwise the first added stays. */
export function addToIndex(index: VocabularyIndex, entry: VocabularyEntry): void {
  const words = unitOf(index.language, entry);
  if (words.length === 0) return;
  if (words.length > 1) {
    const core = withoutArticle(entry.text, index.language);
    if (core !== entry.text.trim()) {
      const [coreWord, ...more] = unitOf(index.language, { ...entry, text: core });
      if (coreWord && more.length === 0 && !index.byArticle.has(coreWord)) index.byArticle.set(coreWord, entry);
    }
  }
  if (words.length === 1) {
    const known = index.single.get(words[0]!);
    if (!known || (known.termId === null && entry.termId !== null)) index.single.set(words[0]!, entry);
    return;
  }
  let level = index.multi;
  let node: Node | undefined;
  for (const word of words) {
    node = level.get(word);
    if (!node) level.set(word, (node = { entry: null, next: new Map() }));
    level = node.next;
  }
  node!.entry ??= entry;
}

/**
 * Takes a known (ignored) word of one word out again; a term of the same word stays. False when the word is not one
 * word of the language (such an index is built again instead).
 */
export function removeIgnoredFromIndex(index: VocabularyIndex, word: string): boolean {
  const words = unitOf(index.language, { text: word, stage: "ignored", termId: null });
  if (words.length !== 1) return false;
  if (index.single.get(words[0]!)?.termId === null) index.single.delete(words[0]!);
  return true;
}

export function indexVocabulary(language: string, vocabulary: VocabularyEntry[]): VocabularyIndex {
  const index = emptyIndex(language);
  for (const entry of vocabulary) addToIndex(index, entry);
  return index;
}

/**
 * Matches every word of a text against an index of the learner's vocabulary. Multi-word terms ("ice cream") win over
 * their single words, the longest first, when only white space lies between their words. `stageOf` gives a term's
 * stage now, when the index was built without stages (they change with every grade and with the clock).
 */
export function matchIndexed(
  index: VocabularyIndex,
  text: Pick<Segmented, "words" | "joined">,
  stageOf?: (termId: string) => Stage | undefined,
): WordMatch[] {
  const { words, joined } = text;
  const stage = (entry: VocabularyEntry) =>
    (entry.termId !== null && stageOf ? stageOf(entry.termId) : undefined) ?? entry.stage;
  const matches: WordMatch[] = new Array(words.length);
  for (let i = 0; i < words.length;) {
    let unit: VocabularyEntry | null = null;
    let length = 0;
    let node = index.multi.get(words[i]!);
    for (let k = 1; node && i + k < words.length && joined[i + k - 1]; k++) {
      node = node.next.get(words[i + k]!);
      if (node?.entry) {
        unit = node.entry;
        length = k + 1;
      }
    }
    if (unit) {
      const match = { stage: stage(unit), termId: unit.termId, start: i, length };
      for (let k = 0; k < length; k++) matches[i + k] = match;
      i += length;
      continue;
    }
    const entry = index.single.get(words[i]!) ?? index.byArticle.get(words[i]!);
    matches[i] = { stage: entry ? stage(entry) : "new", termId: entry?.termId ?? null, start: i, length: 1 };
    i++;
  }
  return matches;
}

/**
 * Matches every word of a text against the learner's vocabulary, case-insensitively for the language. Multi-word terms
 * ("ice cream") win over their single words, the longest first; a term wins over an ignored word of the same text. A
 * term stored with its article ("der Hund", "la casa") also marks the word alone ("Hund"), unless that word is a term
 * or ignored word of its own.
 */
export function matchWords(language: string, text: Segmented, vocabulary: VocabularyEntry[]): WordMatch[] {
  return matchIndexed(indexVocabulary(language, vocabulary), text);
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
