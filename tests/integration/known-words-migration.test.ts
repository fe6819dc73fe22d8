/**
 * Migration 0028 (ADR 105): the terms that "mark the rest of this page as known" used to add — learned, with no meaning
 * and no review of their own — become known words, and their cards go; every term that was reviewed stays, with its
 * log, and the per-day aggregates stay those of the terms that remain. The old data is written by the old code path's
 * statement (one insert of learned cards at one moment) on a database migrated up to the migration before.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "../../app/db/db.server";
import { openDatabase } from "../../app/db/open.server.ts";
import { cardForStage, newCard } from "../../app/learning/stage";
import { learnerStatistics } from "../../app/progress/statistics.server";
import { PROJECT_ROOT } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

const MIGRATIONS = path.join(PROJECT_ROOT, "drizzle");
const KNOWN_WORDS_MIGRATION = "0028_known_words";
const DAY_MS = 86_400_000;

async function rowsOf<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The old `addKnownTerms`: each word a term in the learned stage, no meaning, all created and changed at `now`. */
async function oldMarkKnown(db: Database, userId: string, language: string, words: string[], now: Date) {
  const card = cardForStage(newCard(now), "learned", now);
  for (const text of words)
    await db.execute(sql`insert into terms (user_id, language, text, meaning, part_of_speech, notes, due, stability,
      difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review, created_at, updated_at)
      values (${userId}, ${language}, ${text}, '', '', '', ${card.due.toISOString()}, ${card.stability},
      ${card.difficulty}, ${card.elapsedDays}, ${card.scheduledDays}, ${card.learningSteps}, ${card.reps}, ${card.lapses},
      ${card.state}, ${card.lastReview?.toISOString() ?? null}, ${now.toISOString()}, ${now.toISOString()})
      on conflict do nothing`);
}

/** The migrations before `tag`, in a folder of their own. */
function migrationsBefore(tag: string): string {
  const before = mkdtempSync(path.join(tempDir("known-migrations"), "drizzle-"));
  cpSync(MIGRATIONS, before, { recursive: true });
  const journalFile = path.join(before, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  for (const entry of journal.entries.slice(at)) rmSync(path.join(before, `${entry.tag}.sql`));
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return before;
}

describe("migration 0028 on terms marked known by the old reader", () => {
  it("turns them into known words, drops their cards and keeps every reviewed term and the aggregates", async () => {
    const before = migrationsBefore(KNOWN_WORDS_MIGRATION);
    const dataDir = tempDir("known-backfill");
    const now = new Date(Date.now() - 3 * DAY_MS);
    let userId: string;
    try {
      const old = await openDatabase({ dataDir, migrationsFolder: before });
      try {
        [{ id: userId }] = (await rowsOf<{ id: string }>(
          old.db,
          sql`insert into users (email) values ('known.migration@example.test') returning id`,
        )) as [{ id: string }];
        await old.db.execute(
          sql`insert into learner_settings (user_id, time_zone) values (${userId}, 'Europe/Berlin')`,
        );
        // A term the learner added and studies, and one marked known that they later reviewed: both stay.
        await old.db.execute(sql`insert into terms (user_id, language, text, meaning, part_of_speech, created_at)
          values (${userId}, 'de', 'Hund', 'dog', 'noun', ${now.toISOString()})`);
        await oldMarkKnown(old.db, userId, "de", ["Katze", "Haus", "und", "Baum"], now);
        await oldMarkKnown(old.db, userId, "tr", ["IŞIK"], now);
        const [baum] = await rowsOf<{ id: string }>(old.db, sql`select id from terms where text = 'Baum'`);
        await old.db.execute(sql`insert into review_logs (term_id, user_id, rating, state, reviewed_at, scheduled_days)
          values (${baum!.id}, ${userId}, 3, 2, ${new Date(now.getTime() + DAY_MS).toISOString()}, 30)`);
        // A word ignored before, and marked known again by the old reader: one known word.
        await old.db.execute(sql`insert into ignored_words (user_id, language, word) values (${userId}, 'de', 'und')`);
        const forecast = await learnerStatistics(old.db, userId, "Europe/Berlin", 30, now);
        expect(forecast.forecast.reduce((sum, day) => sum + day.due, 0)).toBe(5);
      } finally {
        await old.close();
      }

      const migrated = await openDatabase({ dataDir, migrationsFolder: MIGRATIONS });
      try {
        const db = migrated.db;
        expect(await rowsOf(db, sql`select text, meaning from terms order by text`)).toEqual([
          { text: "Baum", meaning: "" },
          { text: "Hund", meaning: "dog" },
        ]);
        expect(await rowsOf(db, sql`select count(*)::int as n from review_logs`)).toEqual([{ n: 1 }]);
        const known = await rowsOf<{ language: string; word: string; created_at: Date | string }>(
          db,
          sql`select language, word, created_at from ignored_words order by language, word`,
        );
        expect(known.map(({ language, word }) => `${language}:${word}`)).toEqual([
          "de:haus",
          "de:katze",
          "de:und",
          "tr:ışık",
        ]);
        // The words keep the day they were marked on.
        expect(new Date(known[0]!.created_at).getTime()).toBe(now.getTime());
        // The aggregates are those of the two terms left: added on their day, each counted in one stage at the end.
        const [sums] = await rowsOf<Record<string, number>>(
          db,
          sql`select sum(new_terms)::int as added, sum(tolearn + inprogress + needsreview + learned)::int as staged,
            sum(again + hard + good + easy)::int as reviews from learner_days where user_id = ${userId}`,
        );
        expect(sums).toEqual({ added: 2, staged: 2, reviews: 1 });
        const [stageDays] = await rowsOf<{ terms: number }>(
          db,
          sql`select count(distinct term_id)::int as terms from term_stage_days where user_id = ${userId}`,
        );
        expect(stageDays!.terms).toBe(2);
        // Migration 0029 counts the known words per language on the day they were marked (known_days).
        expect(
          await rowsOf(db, sql`select language, sum(words)::int as words from known_days group by 1 order by 1`),
        ).toEqual([
          { language: "de", words: 3 },
          { language: "tr", words: 1 },
        ]);
        // No more spike of cards coming due: only the reviewed term is scheduled.
        const statistics = await learnerStatistics(db, userId, "Europe/Berlin", 30, now);
        expect(statistics.forecast.reduce((sum, day) => sum + day.due, 0)).toBe(1);
      } finally {
        await migrated.close();
      }
    } finally {
      rmSync(path.dirname(before), { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
