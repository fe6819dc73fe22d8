/**
 * Review histories for the seed (scripts/seed-terms.ts): each term's FSRS card as a real learner would leave it, with
 * its reviews and examples.
 */
import { randomUUID } from "node:crypto";
import { applyGrade, GRADES, newCard, type CardFields, type GradeName } from "../../app/learning/stage.ts";
import type { PartOfSpeech } from "../../app/learning/vocabulary.ts";
import { EXAMPLES, MEANINGS, NOTES, pick, POS_WEIGHTS, weighted, type Random } from "./vocabulary.ts";

export const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

const FIRST_GRADES: readonly (readonly [GradeName, number])[] = [
  ["again", 18],
  ["hard", 17],
  ["good", 50],
  ["easy", 15],
];
const LATER_GRADES: readonly (readonly [GradeName, number])[] = [
  ["again", 10],
  ["hard", 15],
  ["good", 62],
  ["easy", 13],
];

/**
 * One term's card after a plausible history: 15% were never studied (new, due since they were added); a fifth of the
 * others were left behind after a few reviews (mostly overdue now); the rest were reviewed until today, learning steps
 * within the session and reviews on their due day or somewhat later. With terms added over the last year this gives
 * about 17% to learn, 20% in progress, 10% to review and 53% learned, a third of all terms due now.
 */
export type Review = { rating: number; state: number; reviewedAt: Date; scheduledDays: number };

function simulateCard(random: Random, createdAt: Date, now: Date, pace = 1): { card: CardFields; reviews: Review[] } {
  let card = newCard(createdAt);
  const reviews: Review[] = [];
  if (random() < 0.15) return { card, reviews };
  const maxReviews = random() < 0.2 ? 1 + Math.floor(random() * 6) : Number.POSITIVE_INFINITY;
  let at = createdAt.getTime() + random() * 2 * DAY_MS;
  for (let done = 0; done < maxReviews && at <= now.getTime(); done++) {
    const grade = weighted(random, card.state === 0 ? FIRST_GRADES : LATER_GRADES);
    const state = card.state;
    card = applyGrade(card, GRADES[grade], new Date(at));
    reviews.push({ rating: GRADES[grade], state, reviewedAt: new Date(at), scheduledDays: card.scheduledDays });
    const due = card.due.getTime();
    const inLearning = card.state === 1 || card.state === 3;
    if (inLearning) at = due + (random() < 0.85 ? random() * 20 * MINUTE_MS : (0.5 + random() * 2) * DAY_MS);
    // A pace below 1 reviews that share of the interval early, as a keen learner does: more reviews per term.
    else at = at + (due - at) * pace + random() ** 3 * Math.max(1, card.scheduledDays * 0.3) * DAY_MS * pace;
  }
  return { card, reviews };
}

export type TermRow = {
  id: string;
  text: string;
  meaning: string;
  partOfSpeech: PartOfSpeech;
  notes: string;
  createdAt: Date;
  card: CardFields;
  reviews: Review[];
  examples: { sentence: string; translation: string; createdAt: Date }[];
};

/**
 * `random` draws the content (text, meaning, examples…), `schedule` the dates and grades: the content of a --seed is the
 * same whenever it runs, only the card history depends on the present.
 */
export function generateTerm(random: Random, schedule: Random, nextWord: () => string, now: Date, pace = 1): TermRow {
  const text = nextWord();
  // Added over the last year, more of them recently.
  const createdAt = new Date(now.getTime() - schedule() ** 1.7 * 365 * DAY_MS - schedule() * DAY_MS);
  const { card, reviews } = simulateCard(schedule, createdAt, now, pace);
  const exampleCount = weighted(random, [
    [0, 30],
    [1, 37],
    [2, 22],
    [3, 11],
  ] as const);
  const examples = Array.from({ length: exampleCount }, (_, i) => {
    const [sentence, translation] = pick(random, EXAMPLES);
    return {
      sentence: sentence.replace("{}", text),
      translation: random() < 0.7 ? translation.replace("{}", text) : "",
      createdAt: new Date(createdAt.getTime() + (i + 1) * 1000 + schedule() * 30 * DAY_MS * Number(i > 0)),
    };
  });
  return {
    id: randomUUID(),
    text: random() < 0.04 ? text[0]!.toUpperCase() + text.slice(1) : text,
    meaning: pick(random, MEANINGS),
    partOfSpeech: weighted(random, POS_WEIGHTS),
    notes: random() < 0.18 ? pick(random, NOTES) : "",
    createdAt,
    card,
    reviews,
    examples: examples.map((example) => ({
      ...example,
      createdAt: new Date(Math.min(example.createdAt.getTime(), now.getTime())),
    })),
  };
}
