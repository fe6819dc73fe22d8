import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { today } from "../learning/daily.server";
import { termExamples, terms } from "../learning/learning.schema";
import { readSettings } from "../learning/settings.server";
import type { Owner } from "../learning/terms.server";
import { soundHashesOf } from "../learning/sounds.server";
import { soundPath } from "../learning/sounds";

/**
 * The player (ADR 109): the day's review read aloud. Each card carries what is spoken (the term, its meaning, its first
 * example) and the version the grade names, so a grade given here reaches the server through the offline review's
 * queue exactly once.
 */

export type PlayerCard = {
  id: string;
  version: number;
  text: string;
  meaning: string;
  example: { sentence: string; translation: string } | null;
  /** The URL of the term's sound (ADR 126): played instead of the voice saying the term. */
  sound: string | null;
};
export type PlayerDeck = { owner: string; language: string; cards: PlayerCard[] };

// FSRS card states (ts-fsrs' State), as daily.server counts them.
const NEW = 0;
const REVIEW = 2;
/** However large the learner's daily limits, the player reads at most this many cards a day's page. */
export const PLAYER_CARDS_MAX = 100;

/**
 * The day's due cards in the review's order (soonest due first), within what is left of today's limits: the learning
 * steps always, new terms and reviews while some are left. Two indexed queries; no scheduling work.
 */
export async function playerDeck(db: Database, owner: Owner, now = new Date()): Promise<PlayerDeck> {
  const settings = await readSettings(db, owner.userId);
  const day = await today(db, owner.userId, settings, now);
  const rows = await db
    .select({
      id: terms.id,
      reps: terms.reps,
      text: terms.text,
      meaning: terms.meaning,
      state: terms.state,
    })
    .from(terms)
    .where(and(eq(terms.userId, owner.userId), eq(terms.language, owner.language), lte(terms.due, now)))
    .orderBy(asc(terms.due), asc(terms.createdAt))
    .limit(PLAYER_CARDS_MAX * 2);
  let newLeft = day.newLeft;
  let reviewsLeft = day.reviewsLeft;
  const chosen = rows
    .filter((term) => {
      if (term.state === NEW) return newLeft-- > 0;
      if (term.state === REVIEW) return reviewsLeft-- > 0;
      return true;
    })
    .slice(0, PLAYER_CARDS_MAX);
  // Each term's first example only (the index on term and creation time gives it).
  const examples = chosen.length
    ? await db
        .selectDistinctOn([termExamples.termId], {
          termId: termExamples.termId,
          sentence: termExamples.sentence,
          translation: termExamples.translation,
        })
        .from(termExamples)
        .where(
          inArray(
            termExamples.termId,
            chosen.map((term) => term.id),
          ),
        )
        .orderBy(asc(termExamples.termId), asc(termExamples.createdAt))
    : [];
  const first = new Map(examples.map(({ termId, sentence, translation }) => [termId, { sentence, translation }]));
  const sounds = await soundHashesOf(
    db,
    chosen.map((term) => term.id),
  );
  return {
    owner: owner.userId,
    language: owner.language,
    cards: chosen.map((term) => ({
      id: term.id,
      version: term.reps,
      text: term.text,
      meaning: term.meaning,
      example: first.get(term.id) ?? null,
      sound: sounds.has(term.id) ? soundPath(sounds.get(term.id)!) : null,
    })),
  };
}
