import type { Database } from "../db/db.server";
import { currentStreak } from "../progress/statistics.server";
import { clozeOf, type Cloze } from "./cloze";
import { memo } from "../util/memo";
import {
  keptNextCard,
  nextDueAfter,
  nextInQueue,
  queueOf,
  today,
  timeSpentToday,
  todaysReviews,
  type LearnerDay,
} from "./daily.server";
import { intervalLabel, nextIntervals } from "./intervals";
import { learnerScheduler } from "./fsrs-fit.server";
import {
  charDiff,
  checkAnswer,
  modeFor,
  SUGGESTED_GRADE,
  type AnswerCheck,
  type DiffPart,
  type ReviewMode,
} from "./review-modes";
import type { FSRS } from "ts-fsrs";
import { GRADES, type GradeName } from "./stage";
import { readSettings } from "./settings.server";
import { soundHashesOf } from "./sounds.server";
import { soundPath } from "./sounds";
import { stemmerFor } from "./stemmers.server";
import { stageOf, type Owner, type Term, type TermExample } from "./terms.server";
import { momentFormatter } from "./time-zone.server";
import { DEFAULT_TIME_ZONE } from "./time-zone";
import type { Stage } from "./vocabulary";

export type ReviewCard = {
  id: string;
  /** The card's version as shown (its review count): the grade form sends it back, so a grade counts once. */
  version: number;
  mode: ReviewMode;
  language: string;
  partOfSpeech: string;
  stage: Stage;
  /** What the front shows: the term (forward), its meaning (reverse, typed) or the example with a gap (cloze). */
  prompt: {
    text: string | null;
    meaning: string | null;
    cloze: { before: string; after: string } | null;
    /** The cloze example's translation (else the meaning), shown once, on the front. */
    hint: string;
  };
  /** Cloze is this term's turn, but none of its examples contains it: the card says so and offers to add one. */
  clozeMissing: boolean;
  /** Only once revealed. */
  answer: {
    text: string;
    /** Furigana, pinyin or a pronunciation ("" when none). */
    reading: string;
    /** The URL of the term's sound (ADR 126), if it has one. */
    sound: string | null;
    /** Play it as the answer shows (the learner's setting). */
    autoplay: boolean;
    /** What fills the gap: the form the sentence uses ("Hunde" for "der Hund"). */
    gapAnswer: string | null;
    meaning: string;
    notes: string;
    /** The term's other examples (the cloze example is on the card already). */
    examples: { id: string; sentence: string; translation: string }[];
    typed: { given: string; check: AnswerCheck; diff: DiffPart[] } | null;
  } | null;
  suggested: GradeName | null;
  /** When the card comes back after each grade, in the interface language ("10 min", "1 day"). */
  intervals: Record<GradeName, string>;
};

export type ReviewSummary = {
  reviewed: number;
  /** Share of grades other than Again, 0-1. */
  correct: number;
  minutes: number;
  streak: number;
  nextDue: string | null;
};

export type ReviewState =
  | {
      card: ReviewCard;
      /** Cards left now, this one included; the same on both sides of a card. */
      remaining: number;
      /** Graded today in this language. */
      done: number;
      /** When the front was shown (the back counts from the same moment). */
      at: number;
    }
  | {
      card: null;
      nextDueAt: string | null;
      minutes: number | null;
      newLimitReached: boolean;
      reviewLimitReached: boolean;
      summary: ReviewSummary | null;
    };

/** The moment the front was shown, sent back with the reveal: within the last day, else now. */
export function frontShownAt(value: string | null, now: Date): Date {
  const at = Number(value);
  return Number.isInteger(at) && at <= now.getTime() && at > now.getTime() - 86_400_000 ? new Date(at) : now;
}

/**
 * The review page at a moment: the next card within today's limits in the mode its turn gives, the answer when revealed
 * (with the typed answer checked and a grade suggested), or, when nothing waits now, when the next card comes today
 * and a summary of today's reviews.
 */
export async function reviewState(
  db: Database,
  owner: Owner,
  view: { revealed: boolean; answer: string | null; shownAt: Date | null; locale: string },
  now = new Date(),
  /** The learner's day at `now` when the request has read it already (learnerDayOf). */
  known?: LearnerDay,
): Promise<ReviewState> {
  const settings = known?.settings ?? (await readSettings(db, owner.userId));
  const day = known?.day ?? (await today(db, owner.userId, settings, now));
  // The queue as read for the learner's day holds at any moment from its reading until a card falls due (the back
  // asks for it at the moment the front was shown).
  const queueAt = (at: Date) =>
    known && at.getTime() >= known.readAt && at.getTime() < known.validUntil
      ? Promise.resolve(known.queue)
      : queueOf(db, owner, day, at);
  // Kept with the learner's day (a grade, a card falling due or the day's end reads it again): the card shown is the
  // same on both sides of a card.
  const readCard = () => nextInQueue(db, owner, day, now);
  const card = await (known ? keptNextCard(known, readCard) : readCard());
  const term = card?.term;
  const timeZone = settings.timeZone ?? DEFAULT_TIME_ZONE;
  if (!term) {
    const [queue, done, ms, streak, later] = await Promise.all([
      queueAt(now),
      todaysReviews(db, owner, day),
      timeSpentToday(db, owner, day),
      currentStreak(db, owner.userId, timeZone, now),
      nextDueAfter(db, owner, now),
    ]);
    const next = queue.nextLaterToday;
    return {
      card: null,
      nextDueAt: next ? next.toISOString() : null,
      minutes: next ? Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 60_000)) : null,
      newLimitReached: day.newLeft === 0,
      reviewLimitReached: day.reviewsLeft === 0,
      summary:
        done.reviewed > 0
          ? {
              reviewed: done.reviewed,
              correct: done.correct / done.reviewed,
              minutes: Math.max(1, Math.round(ms / 60_000)),
              streak,
              nextDue: later ? momentFormatter(view.locale, timeZone)(later) : null,
            }
          : null,
    };
  }
  const { examples } = card!;
  const shownAt = view.shownAt ?? now;
  const [queue, done, by] = await Promise.all([
    queueAt(shownAt),
    // Today's grades in this language came with the learner's day; counted on their own without it.
    known ? known.gradedToday : todaysReviews(db, owner, day).then((graded) => graded.reviewed),
    known ? known.scheduler : learnerScheduler(db, owner.userId),
  ]);
  return {
    // The card on screen is always counted, even when it came due between the front and the back.
    remaining: Math.max(1, queue.dueNow),
    done,
    at: shownAt.getTime(),
    card: reviewCard(term, examples, settings.modes, now, intervalLabels(term, now, by, view.locale), {
      revealed: view.revealed,
      answer: view.answer,
      sound: view.revealed ? ((await soundHashesOf(db, [term.id])).get(term.id) ?? null) : null,
      autoplay: settings.autoplaySounds ?? false,
    }),
  };
}

/** When the card comes back after each grade, by the learner's scheduler, in the interface language. */
export function intervalLabels(term: Term, now: Date, by: FSRS, locale: string): Record<GradeName, string> {
  const intervals = nextIntervals(term, now, by);
  return Object.fromEntries(
    (Object.keys(GRADES) as GradeName[]).map((grade) => [grade, intervalLabel(intervals[grade], locale)]),
  ) as Record<GradeName, string>;
}

/**
 * The cloze of a term in one example, by language, term and sentence. A card is drawn twice a review (its front, then
 * its back), and each drawing looks for the term in every example (whether a cloze exists decides the mode): the
 * second drawing finds what the first found. NUL separates the parts: stored text never holds it.
 */
const clozeFor = memo(1024, (key): Cloze | null => {
  const [language, text, sentence] = key.split("\0") as [string, string, string];
  return clozeOf(sentence, text, language, stemmerFor(language));
});

/**
 * The card as the review draws it, for the review page and the offline deck alike: its mode (cloze only when an
 * example contains the term), the front, and once revealed the answer; a typed answer, when one was given (`answer`
 * is undefined for the offline deck: the device checks it), is checked and compared.
 */
export function reviewCard(
  term: Term,
  examples: readonly TermExample[],
  modes: readonly ReviewMode[],
  now: Date,
  intervals: Record<GradeName, string>,
  view: { revealed: boolean; answer: string | null | undefined; sound?: string | null; autoplay?: boolean },
): ReviewCard {
  const gapped = examples
    .map((example) => ({ example, cloze: clozeFor(`${term.language}\0${term.text}\0${example.sentence}`) }))
    .filter((entry): entry is { example: TermExample; cloze: Cloze } => entry.cloze !== null);
  const hasMeaning = term.meaning.trim() !== "";
  const mode = modeFor(term, modes, { cloze: gapped.length > 0, meaning: hasMeaning });
  const clozeMissing = gapped.length === 0 && modeFor(term, modes, { cloze: true, meaning: hasMeaning }) === "cloze";
  const chosen = mode === "cloze" ? gapped[term.reps % gapped.length]! : null;
  const given =
    mode === "typed" && view.revealed && view.answer !== undefined ? (view.answer ?? "").slice(0, 200) : null;
  const check = given === null ? null : checkAnswer(term.text, given, term.language);
  return {
    id: term.id,
    version: term.reps,
    mode,
    language: term.language,
    partOfSpeech: term.partOfSpeech,
    stage: stageOf(term, now),
    prompt: {
      text: mode === "forward" ? term.text : null,
      meaning: mode === "reverse" || mode === "typed" ? term.meaning : null,
      cloze: chosen ? { before: chosen.cloze.before, after: chosen.cloze.after } : null,
      hint: chosen ? chosen.example.translation || term.meaning : "",
    },
    clozeMissing,
    answer: view.revealed
      ? {
          text: term.text,
          reading: term.reading,
          sound: view.sound ? soundPath(view.sound) : null,
          autoplay: view.autoplay ?? false,
          gapAnswer: chosen ? chosen.cloze.answer : null,
          meaning: term.meaning,
          notes: term.notes,
          examples: examples
            .filter((e) => e.id !== chosen?.example.id)
            .map((e) => ({ id: e.id, sentence: e.sentence, translation: e.translation })),
          typed: given === null ? null : { given, check: check!, diff: charDiff(term.text, given) },
        }
      : null,
    suggested: check ? SUGGESTED_GRADE[check] : null,
    intervals,
  };
}
