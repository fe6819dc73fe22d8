import { and, asc, eq, inArray, lt } from "drizzle-orm";
import { z } from "zod";
import { soundHashesOf } from "./sounds.server";
import type { Database } from "../db/db.server";
import { today } from "./daily.server";
import { learnerScheduler } from "./fsrs-fit.server";
import { reviewLogs, termExamples, terms } from "./learning.schema";
import { intervalLabels, reviewCard, type ReviewCard } from "./review-page.server";
import { readSettings } from "./settings.server";
import type { ReviewMode } from "./review-modes";
import { GRADES, SchedulerError, type GradeName } from "./stage";
import { log } from "../server/log.server";
import { gradeTerm, type Owner, type Term, type TermExample } from "./terms.server";
import type { FSRS } from "ts-fsrs";

/**
 * The offline review (ADR 065): today's cards sent to the learner's device while online, and the grades given offline
 * sent back and applied at the moment they were given.
 */

/** A card as the device keeps it: answer included (the device hides it until revealed), with when it is due. */
export type OfflineCard = ReviewCard & { due: number };
export type OfflineDeck = { owner: string; language: string; fetchedAt: number; dayEnd: number; cards: OfflineCard[] };

// FSRS card states (ts-fsrs' State), as daily.server counts them.
const NEW = 0;
const REVIEW = 2;
/** However large the learner's daily limits, a device keeps at most this many cards. */
export const OFFLINE_CARDS_MAX = 500;

/**
 * Today's cards in the order the review shows them (soonest due first) within what is left of today's limits: the
 * learning steps always, new terms and reviews while some are left. Each in the mode its turn gives now.
 */
export async function offlineDeck(db: Database, owner: Owner, locale: string, now = new Date()): Promise<OfflineDeck> {
  const [settings, by] = await Promise.all([readSettings(db, owner.userId), learnerScheduler(db, owner.userId)]);
  const day = await today(db, owner.userId, settings, now);
  const rows = await db
    .select()
    .from(terms)
    .where(and(eq(terms.userId, owner.userId), eq(terms.language, owner.language), lt(terms.due, day.end)))
    .orderBy(asc(terms.due), asc(terms.createdAt))
    .limit(OFFLINE_CARDS_MAX * 2);
  let newLeft = day.newLeft;
  let reviewsLeft = day.reviewsLeft;
  const chosen = rows
    .filter((term) => {
      if (term.state === NEW) return newLeft-- > 0;
      if (term.state === REVIEW) return reviewsLeft-- > 0;
      return true;
    })
    .slice(0, OFFLINE_CARDS_MAX);
  return {
    owner: owner.userId,
    language: owner.language,
    fetchedAt: now.getTime(),
    dayEnd: day.end.getTime(),
    cards: await asCards(db, chosen, settings.modes, by, locale, now),
  };
}

/** The same card the review page renders, revealed, without a typed answer (the device checks that), with its due. */
async function asCards(
  db: Database,
  chosen: Term[],
  modes: readonly ReviewMode[],
  by: FSRS,
  locale: string,
  now: Date,
): Promise<OfflineCard[]> {
  const examples = chosen.length
    ? await db
        .select()
        .from(termExamples)
        .where(
          inArray(
            termExamples.termId,
            chosen.map((term) => term.id),
          ),
        )
        .orderBy(asc(termExamples.createdAt))
    : [];
  const sounds = await soundHashesOf(
    db,
    chosen.map((term) => term.id),
  );
  const byTerm = new Map<string, TermExample[]>();
  for (const example of examples) byTerm.set(example.termId, [...(byTerm.get(example.termId) ?? []), example]);
  return chosen.map((term) => ({
    ...reviewCard(term, byTerm.get(term.id) ?? [], modes, now, intervalLabels(term, now, by, locale), {
      revealed: true,
      answer: undefined,
      sound: sounds.get(term.id) ?? null,
    }),
    due: term.due.getTime(),
  }));
}

/**
 * The cards of terms just graded that fall due again before the learner's day ends (a learning step after "Again"):
 * the answer to a grade sent from the device carries them, so the card comes back in the same session (ADR 117).
 * Only terms due within a day are read further.
 */
export async function cardsBack(
  db: Database,
  owner: Owner,
  termIds: string[],
  locale: string,
  now = new Date(),
): Promise<OfflineCard[]> {
  if (termIds.length === 0) return [];
  const rows = await db
    .select()
    .from(terms)
    .where(
      and(
        eq(terms.userId, owner.userId),
        eq(terms.language, owner.language),
        inArray(terms.id, termIds),
        lt(terms.due, new Date(now.getTime() + 86_400_000)),
      ),
    );
  if (rows.length === 0) return [];
  const [settings, by] = await Promise.all([readSettings(db, owner.userId), learnerScheduler(db, owner.userId)]);
  const day = await today(db, owner.userId, settings, now);
  const soon = rows.filter((term) => term.due < day.end).sort((a, b) => a.due.getTime() - b.due.getTime());
  return asCards(db, soon, settings.modes, by, locale, now);
}

/** How long a grade given offline stays good for: older ones are dropped (the schedule has moved on). */
export const OFFLINE_GRADE_MAX_AGE_MS = 30 * 86_400_000;
/** Grades per sync request (the device sends more in turns). */
export const SYNC_BATCH = 100;

export const offlineGradesSchema = z
  .array(
    z.object({
      termId: z.uuid(),
      version: z.number().int().min(0).max(999_999_999),
      grade: z.enum(Object.keys(GRADES) as [GradeName, ...GradeName[]]),
      at: z.number().int().positive(),
    }),
  )
  .max(SYNC_BATCH);
export type OfflineGrade = z.infer<typeof offlineGradesSchema>[number];

/**
 * What became of a grade: applied; already applied (the same grade sent again); the card was graded or its stage
 * changed elsewhere first (the change that reached the server first wins: ADRs 065, 095); the term is gone, or the
 * grade too old; the scheduler refused it (`failed`: the card's stored schedule is one FSRS cannot work from).
 * Every outcome is final: the device forgets the grade.
 */
export type SyncOutcome = "applied" | "duplicate" | "elsewhere" | "gone" | "expired" | "failed";

/**
 * Applies grades given offline, in the order they were given, each at its own moment and in a transaction of its own
 * (gradeTerm), each only if the card is still at the version the learner saw and its schedule did not start after the
 * grade's moment. A moment in the future (a device clock ahead) counts as now. One grade the scheduler refuses is
 * that grade's outcome, never the batch's: the grades after it are applied.
 */
export async function applyOfflineGrades(
  db: Database,
  userId: string,
  grades: OfflineGrade[],
  now = new Date(),
): Promise<SyncOutcome[]> {
  const order = grades.map((grade, index) => ({ grade, index })).sort((a, b) => a.grade.at - b.grade.at);
  const outcomes: SyncOutcome[] = new Array(grades.length);
  for (const { grade, index } of order) {
    if (grade.at < now.getTime() - OFFLINE_GRADE_MAX_AGE_MS) {
      outcomes[index] = "expired";
      continue;
    }
    const at = new Date(Math.min(grade.at, now.getTime()));
    let result: Awaited<ReturnType<typeof gradeTerm>>;
    try {
      result = await gradeTerm(db, userId, grade.termId, grade.grade, at, grade.version);
    } catch (error) {
      if (!(error instanceof SchedulerError)) throw error;
      log.warn("offline grade refused by the scheduler", { termId: grade.termId, error });
      outcomes[index] = "failed";
      continue;
    }
    if (result === null) outcomes[index] = "gone";
    else if (result !== "stale") outcomes[index] = "applied";
    else outcomes[index] = (await alreadyApplied(db, grade.termId, at)) ? "duplicate" : "elsewhere";
  }
  return outcomes;
}

/** Whether this term has a review at exactly this moment: the same offline grade, applied by an earlier sync. */
async function alreadyApplied(db: Database, termId: string, at: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: reviewLogs.id })
    .from(reviewLogs)
    .where(and(eq(reviewLogs.termId, termId), eq(reviewLogs.reviewedAt, at)))
    .limit(1);
  return row !== undefined;
}
