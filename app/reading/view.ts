import type { WordFamily } from "../learning/families";
import type { Stage } from "../learning/vocabulary";
import type { TextStats, WordStage } from "./match";
/**
 * A word (or a multi-word term, as one unit) on a reading page, or the text between words; `ruby`: the word with its
 * readings (furigana, pinyin) when they are shown and it has some, packed (readings.ts' `packRuby`).
 */
export type ViewWord = { text: string; word: number; stage: WordStage; term: boolean; ruby?: string };
export type ViewPiece = string | ViewWord;

/** The word whose panel is open: its term when it is one, else what an "add term" form starts from. */
export type SelectedWord = {
  word: number;
  text: string;
  sentence: string;
  stage: WordStage;
  /** The word's reading in the text (kana, pinyin), which a new term takes; "" when it has none. */
  reading?: string;
  term: {
    id: string;
    text: string;
    reading?: string;
    meaning: string;
    partOfSpeech: string;
    stage: Stage;
    /** The URL of the term's sound (ADR 126), if it has one. */
    sound?: string | null;
  } | null;
  /** Its word family (ADR 061): parent, forms or proposed parents; none on pages that do not offer it. */
  family?: WordFamily | null;
};

export type ReaderView = {
  title: string;
  language: string;
  page: number;
  pages: number;
  paragraphs: ViewPiece[][];
  stats: TextStats;
  selected: SelectedWord | null;
  /** Whether the text's language has readings (a toggle shows or hides them), and whether they are shown. */
  readings?: { available: boolean; shown: boolean };
};

/** The stage keys 1–4 set from the keyboard, in order. */
export const KEY_STAGES: readonly Stage[] = ["tolearn", "inprogress", "needsreview", "learned"];
