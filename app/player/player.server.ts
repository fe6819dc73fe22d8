import { and, asc, eq, inArray, lte, notInArray, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { badRequest } from "../http/intents.server";
import { dayMemo, type LearnerDay } from "../learning/daily.server";
import { termExamples, terms } from "../learning/learning.schema";
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
/** The cards a page or a continuation carries, and where the next batch starts (`null`: the day's cards end here). */
export type PlayerDeck = {
  owner: string;
  language: string;
  cards: PlayerCard[];
  next: string | null;
  /** How many cards the day's review holds now (the learning steps, and new terms and reviews within the limits). */
  total: number;
};

// FSRS card states (ts-fsrs' State), as daily.server counts them.
const NEW = 0;
const REVIEW = 2;
/**
 * The cards one answer carries (several minutes of listening): the page renders and sends only these; the player asks
 * for the next batch before it reaches their end.
 */
export const PLAYER_BATCH = 25;
/** Due rows read per query while a batch fills (each query that leaves it short exhausts one of the daily limits). */
const WINDOW = PLAYER_BATCH * 2;
/**
 * At most this many characters of `?after=`; a longer one is not a cursor this server made (the longest it makes, with
 * microseconds, a time zone offset in minutes and the highest limits, is about 230).
 */
const CURSOR_MAX = 400;

/**
 * Where a continuation starts: after the last card handed out (its due time and creation time as PostgreSQL prints
 * them, so no precision is lost, and its id), with what was left of the daily limits after the cards handed out. The
 * learner can only change how many of their own cards they hear; the server still caps both limits at what is left.
 */
type Cursor = { due: string; created: string; id: string; newLeft: number; reviewsLeft: number };

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/** The cursor of `?after=`, or `null` when it is not one this server made (a 400 for the page). */
export function decodeCursor(after: string): Cursor | null {
  if (after.length > CURSOR_MAX || !/^[A-Za-z0-9_-]+$/.test(after)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(after, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const cursor = value as Partial<Cursor> | null;
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  return cursor &&
    typeof cursor.due === "string" &&
    TIMESTAMP.test(cursor.due) &&
    typeof cursor.created === "string" &&
    TIMESTAMP.test(cursor.created) &&
    typeof cursor.id === "string" &&
    UUID.test(cursor.id) &&
    count(cursor.newLeft) &&
    count(cursor.reviewsLeft)
    ? (cursor as Cursor)
    : null;
}

/** The continuation a request names (`?after=`), `null` for the day's first cards; a cursor not made here is a 400. */
export function playerCursor(request: Request): Cursor | null {
  const after = new URL(request.url).searchParams.get("after");
  if (after === null) return null;
  return decodeCursor(after) ?? badRequest();
}

/**
 * The day's due cards in the review's order (soonest due first), within what is left of today's limits: the learning
 * steps always, new terms and reviews while some are left; at most `PLAYER_BATCH` of them, from `after` on. `known` is
 * the learner's day as the header and the review read it (limits, and the count of cards due now); the first batch is
 * kept with it, so the page shown again before the learner's next write reads nothing more.
 */
export function playerDeck(db: Database, owner: Owner, known: LearnerDay, after: Cursor | null): Promise<PlayerDeck> {
  const read = () => readBatch(db, owner, known, after);
  return after ? read() : dayMemo(known, "playerFirstBatch", read);
}

/** One batch: indexed queries only (at most three for the cards: each that leaves it short used up a limit). */
async function readBatch(db: Database, owner: Owner, known: LearnerDay, after: Cursor | null): Promise<PlayerDeck> {
  const { day, now } = known;
  let newLeft = Math.min(day.newLeft, after?.newLeft ?? day.newLeft);
  let reviewsLeft = Math.min(day.reviewsLeft, after?.reviewsLeft ?? day.reviewsLeft);
  let from = after;
  const chosen: { id: string; reps: number; text: string; meaning: string; due: string; created: string }[] = [];
  let more = true;
  while (chosen.length < PLAYER_BATCH && more) {
    const skipped = [...(newLeft > 0 ? [] : [NEW]), ...(reviewsLeft > 0 ? [] : [REVIEW])];
    const rows = await db
      .select({
        id: terms.id,
        reps: terms.reps,
        text: terms.text,
        meaning: terms.meaning,
        state: terms.state,
        due: sql<string>`${terms.due}::text`,
        created: sql<string>`${terms.createdAt}::text`,
      })
      .from(terms)
      .where(
        and(
          eq(terms.userId, owner.userId),
          eq(terms.language, owner.language),
          lte(terms.due, now),
          skipped.length ? notInArray(terms.state, skipped) : undefined,
          from
            ? sql`(${terms.due}, ${terms.createdAt}, ${terms.id}) > (${from.due}::timestamptz, ${from.created}::timestamptz, ${from.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(asc(terms.due), asc(terms.createdAt), asc(terms.id))
      .limit(WINDOW);
    more = rows.length === WINDOW;
    for (const row of rows) {
      if (row.state === NEW) {
        if (newLeft === 0) continue;
        newLeft--;
      } else if (row.state === REVIEW) {
        if (reviewsLeft === 0) continue;
        reviewsLeft--;
      }
      chosen.push(row);
      from = { due: row.due, created: row.created, id: row.id, newLeft, reviewsLeft };
      if (chosen.length === PLAYER_BATCH) {
        // The rest of this window is read again by the continuation.
        more = true;
        break;
      }
    }
  }
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
    next: more && from ? encodeCursor(from) : null,
    total: known.queue.dueNow,
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
