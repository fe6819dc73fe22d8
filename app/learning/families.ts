import type { Stemmer } from "./cloze";
import type { Stage } from "./vocabulary";

/**
 * Word families (ADR 061): a term may have a parent, its lemma ("Hunde" → "Hund"). Pure rules here; the database side
 * is in families.server.ts.
 */

/** A parent proposed for a word: one of the learner's terms (`termId`) or a word to become a term when linked. */
export type ParentProposal = { text: string; termId: string | null; source: "dictionary" | "stem" };

/** Proposals the panel shows at most. */
export const MAX_PROPOSALS = 3;
/** A stem shorter than this (one letter) says nothing about a family; Turkish "ev" (house) is a stem of two. */
const MIN_STEM = 2;

const lower = (language: string, value: string) => {
  try {
    return value.toLocaleLowerCase(language);
  } catch {
    return value.toLowerCase();
  }
};

/** The key a word is grouped into a family by: its lower-cased stem, or null when the stem is too short to say. */
export function stemKey(language: string, word: string, stem: Stemmer): string | null {
  const key = stem(lower(language, word.trim()));
  return key.length >= MIN_STEM ? key : null;
}

/**
 * The parents to propose for `word`, best first: a dictionary's lemmas (given), then the learner's terms that share the
 * word's stem (shortest first: a lemma is rarely longer than its forms), then words of the text that share it and are
 * shorter than the word. Never the word itself, never twice the same (case-insensitively), at most MAX_PROPOSALS.
 */
export function proposeParents(input: {
  language: string;
  word: string;
  stem: Stemmer | undefined;
  /** A dictionary's lemmas of the word (`lemmaCandidates`), each with the learner's term of that text if any. */
  lemmas: { text: string; termId: string | null }[];
  /** The learner's terms in the language (as the reader's index keys them: the word, without an article). */
  terms: Iterable<{ key: string; text: string; termId: string }>;
  /** The text's words as written. */
  textWords: Iterable<string>;
}): ParentProposal[] {
  const { language, word, stem } = input;
  const self = lower(language, word.trim());
  const seen = new Set<string>([self]);
  const out: ParentProposal[] = [];
  const add = (text: string, termId: string | null, source: ParentProposal["source"]) => {
    const key = lower(language, text.trim());
    if (!key || seen.has(key) || out.length >= MAX_PROPOSALS) return;
    seen.add(key);
    out.push({ text, termId, source });
  };
  for (const lemma of input.lemmas) add(lemma.text, lemma.termId, "dictionary");
  const family = stem ? stemKey(language, word, stem) : null;
  if (family === null || !stem) return out;
  const byLength = (a: { text: string }, b: { text: string }) => a.text.length - b.text.length;
  const related = [...input.terms].filter((term) => term.key !== self && stemKey(language, term.key, stem) === family);
  for (const term of related.sort(byLength)) add(term.text, term.termId, "stem");
  const words = [...new Set(input.textWords)].filter(
    (w) => w.length < word.trim().length && stemKey(language, w, stem) === family,
  );
  for (const w of words.sort((a, b) => a.length - b.length)) add(w, null, "stem");
  return out;
}

/**
 * The stage a word of a text shows: the term's own, or its parent's when the term has none of its own yet (never
 * reviewed nor staged: "to learn") and has a parent.
 */
export function familyStage(own: Stage, parent: Stage | null | undefined): Stage {
  return own === "tolearn" && parent ? parent : own;
}

/** Why a link was refused: linking a term to itself, or making a term with forms of its own a form. */
export type LinkRefusal = "self" | "hasForms";

/**
 * Whether `form` may become a form of `parent` (after the parent was resolved to its own lemma, families being one
 * level deep): never itself, and never a term that has forms of its own. So no chain and no cycle can arise.
 */
export function linkRefusal(form: { id: string; forms: number }, parent: { id: string }): LinkRefusal | null {
  if (form.id === parent.id) return "self";
  if (form.forms > 0) return "hasForms";
  return null;
}

/** What the reader's word panel shows of a word's family. */
export type WordFamily = {
  /** The term's parent, when the word is a form. */
  parent: { id: string; text: string; meaning: string } | null;
  /** How many forms the term has, when it is a parent. */
  forms: number;
  /** Parents to link the word to, when it is none's form and has no forms. */
  proposals: { text: string; termId: string | null; meaning: string }[];
};
