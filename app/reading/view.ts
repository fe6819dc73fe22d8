import type { WordFamily } from "../learning/families";
import type { Stage } from "../learning/vocabulary";
import type { TextStats, WordStage } from "./match";

/** A word (or a multi-word term, as one unit) on a reading page, or the text between words. */
export type ViewWord = { text: string; word: number; stage: WordStage; term: boolean };
export type ViewPiece = string | ViewWord;

/** The word whose panel is open: its term when it is one, else what an "add term" form starts from. */
export type SelectedWord = {
  word: number;
  text: string;
  sentence: string;
  stage: WordStage;
  term: { id: string; text: string; meaning: string; partOfSpeech: string; stage: Stage } | null;
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
};

/** The stage keys 1–4 set from the keyboard, in order. */
export const KEY_STAGES: readonly Stage[] = ["tolearn", "inprogress", "needsreview", "learned"];
