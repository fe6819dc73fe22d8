/**
 * A review history drawn from known FSRS-6 parameters: a learner who forgets faster than FSRS's defaults assume. Each
 * term is first seen on some day, graded (first grade drawn from fixed shares), and reviewed again on the day the
 * learner's true memory model schedules it, give or take a couple of days; at each review the learner recalls with the
 * probability the true model gives (Again otherwise; Hard, Good or Easy in fixed shares). Deterministic for a seed.
 */
import { createEmptyCard, default_w, forgetting_curve, fsrs, generatorParameters, State, type Grade } from "ts-fsrs";
import type { History } from "../../app/learning/fsrs-fit.worker.ts";

const DAY = 86_400_000;

/** The learner's true parameters: lower initial stabilities and slower growth of stability than the defaults. */
export const TRUE_PARAMETERS: number[] = (() => {
  const w = [...default_w];
  w[0] = 0.1;
  w[1] = 0.4;
  w[2] = 1.2;
  w[3] = 5;
  w[8] = 1.0;
  w[11] = 2.5;
  return w;
})();

export type SyntheticReview = { rating: number; state: number; day: number };

/**
 * `total` reviews over terms of at most `perTerm` reviews each, starting within `spreadDays` days of day 0; a term's
 * reviews stop at `horizonDays` (the history spans a few years, as a learner's does).
 */
export function syntheticHistory({
  total = 10_000,
  perTerm = 12,
  spreadDays = 300,
  horizonDays = 1_500,
  seed = 42,
} = {}) {
  let state = seed;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const truth = fsrs(generatorParameters({ w: TRUE_PARAMETERS, enable_short_term: false, enable_fuzz: false }));
  const terms: SyntheticReview[][] = [];
  let count = 0;
  while (count < total) {
    const start = Math.floor(random() * spreadDays);
    let card = createEmptyCard(new Date(start * DAY));
    let day = start;
    const reviews: SyntheticReview[] = [];
    for (let i = 0; i < perTerm && count < total && day <= horizonDays; i++) {
      let rating: number;
      if (card.state === State.New) {
        const u = random();
        rating = u < 0.25 ? 1 : u < 0.35 ? 2 : u < 0.9 ? 3 : 4;
      } else {
        const elapsed = day - Math.round(card.last_review!.getTime() / DAY);
        const recall = forgetting_curve(TRUE_PARAMETERS, elapsed, card.stability);
        const u = random();
        rating = random() > recall ? 1 : u < 0.15 ? 2 : u < 0.9 ? 3 : 4;
      }
      reviews.push({ rating, state: card.state, day });
      count++;
      card = truth.next(card, new Date(day * DAY), rating as Grade).card;
      day = Math.round(card.due.getTime() / DAY) + Math.floor(random() * 3);
    }
    terms.push(reviews);
  }
  return terms;
}

/** The histories as the fitting reads them from the review log (rating, days since the review before). */
export const asHistories = (terms: SyntheticReview[][]): History[] =>
  terms.map((reviews) => reviews.flatMap((r, i) => [r.rating, i === 0 ? 0 : r.day - reviews[i - 1]!.day]));

/**
 * The history as this app's JSON export, for the import: one term per history in `language`, reviewed at noon UTC,
 * the last review `endDay` days ago at most (the card fields are those a term would have had; the importer keeps them).
 */
export function asExport(terms: SyntheticReview[][], { language = "de", now = Date.now() } = {}) {
  const lastDay = Math.max(...terms.flatMap((reviews) => reviews.map((r) => r.day)));
  const at = (day: number) => new Date(now - (lastDay - day + 1) * DAY).toISOString();
  return {
    format: "polyglot-export",
    version: 1,
    terms: terms.map((reviews, index) => {
      const last = reviews[reviews.length - 1]!;
      return {
        language,
        text: `wort${index}`,
        meaning: `word ${index}`,
        partOfSpeech: "noun",
        notes: "",
        createdAt: at(reviews[0]!.day),
        updatedAt: at(last.day),
        card: {
          due: at(last.day + 1),
          stability: 1,
          difficulty: 5,
          elapsedDays: 0,
          scheduledDays: 1,
          learningSteps: 0,
          reps: reviews.length,
          lapses: reviews.filter((r) => r.rating === 1 && r.state === State.Review).length,
          state: State.Review,
          lastReview: at(last.day),
        },
        examples: [],
        reviews: reviews.map((r) => ({ rating: r.rating, state: r.state, reviewedAt: at(r.day), scheduledDays: 1 })),
      };
    }),
  };
}
