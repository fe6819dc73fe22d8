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

export type DiffPart = { kind: "same" | "missing" | "extra"; text: string };

/**
 * What was typed against the answer, letter by letter (a longest common subsequence): letters both share, letters of
 * the answer that were missing, letters typed that are not in it. Compared as typed (case and accents count).
 */
export function charDiff(expected: string, given: string): DiffPart[] {
  const a = Array.from(normalise(expected));
  const b = Array.from(normalise(given));
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart["kind"], text: string) => {
    const last = parts.at(-1);
    if (last?.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      push("same", a[i]!);
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lengths[i]![j + 1]! >= lengths[i + 1]![j]!)) push("extra", b[j++]!);
    else push("missing", a[i++]!);
  }
  return parts;
}
