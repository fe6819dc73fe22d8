import type { GradeName } from "./stage";

/** How a term is asked: term → meaning, meaning → term, the term typed from its meaning, or its example with a gap. */
export const REVIEW_MODES = ["forward", "reverse", "typed", "cloze"] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];
export const DEFAULT_REVIEW_MODES: ReviewMode[] = ["forward"];

export const isReviewMode = (value: unknown): value is ReviewMode =>
  typeof value === "string" && (REVIEW_MODES as readonly string[]).includes(value);

/** The stored list ("forward,cloze"), unknown names dropped, never empty. */
export function parseModes(stored: string): ReviewMode[] {
  const modes = REVIEW_MODES.filter((mode) => stored.split(",").includes(mode));
  return modes.length > 0 ? modes : DEFAULT_REVIEW_MODES;
}

/**
 * The mode of a term's next review: the learner's modes in turn, moving on with each review of the term and differing
 * between terms, stable until the term is graded. Cloze needs an example containing the term, reverse and typed need a
 * meaning; a term without one takes another of the learner's modes (term → meaning when none is left).
 */
export function modeFor(
  term: { id: string; reps: number },
  modes: readonly ReviewMode[],
  has: { cloze: boolean; meaning: boolean },
): ReviewMode {
  const usable = modes.filter(
    (mode) => (mode !== "cloze" || has.cloze) && ((mode !== "reverse" && mode !== "typed") || has.meaning),
  );
  if (usable.length === 0) return "forward";
  const seed = Number.parseInt(term.id.replace(/-/g, "").slice(-6), 16) || 0;
  return usable[(seed + term.reps) % usable.length]!;
}

const normalise = (value: string) => value.normalize("NFC").trim().replace(/\s+/g, " ");

export type AnswerCheck = "exact" | "close" | "wrong";

/**
 * A typed answer against the term: exactly the same; the same letters but for case or accents, as the language's own
 * collation sees it (in Swedish "å" is its own letter, in French "é" is an accented "e"); or wrong.
 */
export function checkAnswer(expected: string, given: string, language: string): AnswerCheck {
  const a = normalise(expected);
  const b = normalise(given);
  if (!b) return "wrong";
  if (a === b) return "exact";
  let locale = language;
  try {
    locale = Intl.Collator.supportedLocalesOf([language])[0] ?? "und";
  } catch {
    locale = "und";
  }
  return a.localeCompare(b, locale, { sensitivity: "base", usage: "search" }) === 0 ? "close" : "wrong";
}

export const SUGGESTED_GRADE: Record<AnswerCheck, GradeName> = { exact: "good", close: "hard", wrong: "again" };

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A sentence with the term's text as a gap ("I drink ___ every morning."), or null when the text is not in it. */
export function clozeOf(sentence: string, text: string): { before: string; after: string } | null {
  const match = new RegExp(escapeRegExp(text.trim()), "iu").exec(sentence);
  if (!match || !text.trim()) return null;
  return { before: sentence.slice(0, match.index), after: sentence.slice(match.index + match[0].length) };
}
