import type { Database } from "../db/db.server";
import { nextInQueue, queueOf, today } from "./daily.server";
import { checkAnswer, clozeOf, modeFor, SUGGESTED_GRADE, type AnswerCheck, type ReviewMode } from "./review-modes";
import type { GradeName } from "./stage";
import { readSettings } from "./settings.server";
import { examplesOf, stageOf, type Owner } from "./terms.server";
import type { Stage } from "./vocabulary";

export type ReviewCard = {
  id: string;
  mode: ReviewMode;
  language: string;
  partOfSpeech: string;
  stage: Stage;
  /** What the front shows: the term (forward), its meaning (reverse, typed) or the example with a gap (cloze). */
  prompt: {
    text: string | null;
    meaning: string | null;
    cloze: { before: string; after: string } | null;
    hint: string;
  };
  /** Only once revealed. */
  answer: {
    text: string;
    meaning: string;
    notes: string;
    examples: { id: string; sentence: string; translation: string }[];
    typed: { given: string; check: AnswerCheck } | null;
  } | null;
  suggested: GradeName | null;
};

export type ReviewState =
  | { card: ReviewCard; remaining: number }
  | {
      card: null;
      nextDueAt: string | null;
      minutes: number | null;
      newLimitReached: boolean;
      reviewLimitReached: boolean;
    };

/**
 * The review page at a moment: the next card within today's limits in the mode its turn gives, the answer when revealed
 * (with the typed answer checked and a grade suggested), or, when nothing waits now, when the next card comes today.
 */
export async function reviewState(
  db: Database,
  owner: Owner,
  view: { revealed: boolean; answer: string | null },
  now = new Date(),
): Promise<ReviewState> {
  const settings = await readSettings(db, owner.userId);
  const day = await today(db, owner.userId, settings, now);
  const term = await nextInQueue(db, owner, day, now);
  if (!term) {
    const next = (await queueOf(db, owner, day, now)).nextLaterToday;
    return {
      card: null,
      nextDueAt: next ? next.toISOString() : null,
      minutes: next ? Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 60_000)) : null,
      newLimitReached: day.newLeft === 0,
      reviewLimitReached: day.reviewsLeft === 0,
    };
  }
  const examples = await examplesOf(db, term.id);
  const gapped = examples.filter((example) => clozeOf(example.sentence, term.text));
  const mode = modeFor(term, settings.modes, { cloze: gapped.length > 0, meaning: term.meaning.trim() !== "" });
  const clozeExample = mode === "cloze" ? gapped[term.reps % gapped.length]! : null;
  const given = mode === "typed" && view.revealed ? (view.answer ?? "").slice(0, 200) : null;
  const check = given === null ? null : checkAnswer(term.text, given, term.language);
  const queue = await queueOf(db, owner, day, now);
  return {
    remaining: queue.dueNow,
    card: {
      id: term.id,
      mode,
      language: term.language,
      partOfSpeech: term.partOfSpeech,
      stage: stageOf(term, now),
      prompt: {
        text: mode === "forward" ? term.text : null,
        meaning: mode === "reverse" || mode === "typed" ? term.meaning : null,
        cloze: clozeExample ? clozeOf(clozeExample.sentence, term.text) : null,
        hint: clozeExample ? clozeExample.translation || term.meaning : "",
      },
      answer: view.revealed
        ? {
            text: term.text,
            meaning: term.meaning,
            notes: term.notes,
            examples: examples.map((e) => ({ id: e.id, sentence: e.sentence, translation: e.translation })),
            typed: given === null ? null : { given, check: check! },
          }
        : null,
      suggested: check ? SUGGESTED_GRADE[check] : null,
    },
  };
}
