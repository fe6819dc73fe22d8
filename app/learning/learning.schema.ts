import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  type AnyPgColumn,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
// `.ts`: scripts load the tables with plain `node` (see db/open.server.ts).
import { users } from "../auth/auth.schema.ts";

/** A learner's vocabulary item with its FSRS card. The stage is derived from the card (see stage.ts). */
export const terms = pgTable(
  "terms",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    language: text("language").notNull(),
    text: text("text").notNull(),
    meaning: text("meaning").notNull().default(""),
    /** How the term is read or said, apart from its meaning: kana, pinyin, a pronunciation ("" when none). */
    reading: text("reading").notNull().default(""),
    /**
     * The term's lemma when it is a form of another term ("Hunde" → "Hund"): same learner, same language, one level
     * deep (a parent has no parent; drizzle/0017's trigger holds that). Deleting the parent leaves its forms unlinked.
     */
    parentId: uuid("parent_id").references((): AnyPgColumn => terms.id, { onDelete: "set null" }),
    partOfSpeech: text("part_of_speech").notNull(),
    notes: text("notes").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // FSRS card
    due: timestamp("due", { withTimezone: true }).notNull().defaultNow(),
    stability: doublePrecision("stability").notNull().default(0),
    difficulty: doublePrecision("difficulty").notNull().default(0),
    elapsedDays: integer("elapsed_days").notNull().default(0),
    scheduledDays: integer("scheduled_days").notNull().default(0),
    learningSteps: integer("learning_steps").notNull().default(0),
    reps: integer("reps").notNull().default(0),
    lapses: integer("lapses").notNull().default(0),
    state: smallint("state").notNull().default(0),
    lastReview: timestamp("last_review", { withTimezone: true }),
    // Filled by the database (drizzle/0013): the learner's days, in their zone when the value was written, that the
    // statistics' aggregates count with (app/progress/statistics.server.ts).
    createdDay: date("created_day", { mode: "string" }),
    lastReviewDay: date("last_review_day", { mode: "string" }),
    dueDay: date("due_day", { mode: "string" }),
  },
  (table) => [
    // The same text twice in one language is one term, whatever its case.
    uniqueIndex("terms_user_language_text_idx").on(table.userId, table.language, sql`lower(${table.text})`),
    index("terms_user_language_created_idx").on(table.userId, table.language, table.createdAt),
    index("terms_user_language_due_idx").on(table.userId, table.language, table.due),
    // A parent's forms (the term page lists them; the check that a form has no forms of its own).
    index("terms_parent_idx")
      .on(table.parentId)
      .where(sql`${table.parentId} is not null`),
    check("terms_parent_not_self", sql`${table.parentId} <> ${table.id}`),
  ],
);

export const termExamples = pgTable(
  "term_examples",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    termId: uuid("term_id")
      .notNull()
      .references(() => terms.id, { onDelete: "cascade" }),
    sentence: text("sentence").notNull(),
    translation: text("translation").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("term_examples_term_idx").on(table.termId, table.createdAt)],
);

/** Every grade given, kept so FSRS parameters can later be fitted to the learner. */
export const reviewLogs = pgTable(
  "review_logs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    termId: uuid("term_id")
      .notNull()
      .references(() => terms.id, { onDelete: "cascade" }),
    rating: smallint("rating").notNull(),
    state: smallint("state").notNull(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }).notNull(),
    scheduledDays: integer("scheduled_days").notNull(),
    // Filled by the database on insert (drizzle/0013): the learner, the day of the review in their zone at that
    // moment, and the day it is due again in the same zone.
    userId: uuid("user_id"),
    day: date("day", { mode: "string" }),
    dueDay: date("due_day", { mode: "string" }),
    // The study language of the term, filled by the database on insert (drizzle/0025) and kept with the term's: a
    // learner's grades of today in one language are counted from their own rows. Null for rows logged before it.
    language: text("language"),
  },
  (table) => [
    index("review_logs_term_idx").on(table.termId),
    // Today's grades of a learner (the daily limits, the review page's progress) without reading everyone's. Built
    // with CREATE INDEX CONCURRENTLY by a background migration, not at start (drizzle/0015, ADR 046).
    index("review_logs_user_reviewed_idx").on(table.userId, table.reviewedAt),
    // NOT VALID in drizzle/0015 (instant; rows the old code writes get user_id from the trigger); validated by the
    // same background migration. The contract step makes the column NOT NULL and drops the trigger.
    check("review_logs_user_id_not_null", sql`${table.userId} is not null`),
  ],
);

/** Curated public word lists, loaded from app/learning/public-lists at start. */
export const publicTerms = pgTable(
  "public_terms",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    language: text("language").notNull(),
    level: text("level").notNull(),
    text: text("text").notNull(),
    /** The gloss per interface locale (`{ "en": "house", "de": "Gebäude, in dem man wohnt" }`). */
    meanings: jsonb("meanings").$type<Record<string, string>>().notNull().default({}),
    partOfSpeech: text("part_of_speech").notNull(),
    exampleSentence: text("example_sentence").notNull(),
    /** The example's translation per interface locale (none in the list's own language). */
    exampleTranslations: jsonb("example_translations").$type<Record<string, string>>().notNull().default({}),
    position: integer("position").notNull(),
  },
  (table) => [
    uniqueIndex("public_terms_list_text_idx").on(table.language, table.level, table.text),
    index("public_terms_list_idx").on(table.language, table.level, table.position),
  ],
);

/** A learner's daily routine: how many new terms and reviews a day, the time zone days are counted in, review modes. */
export const learnerSettings = pgTable(
  "learner_settings",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    newPerDay: integer("new_per_day").notNull().default(20),
    reviewsPerDay: integer("reviews_per_day").notNull().default(200),
    /** An IANA zone; null until the learner (or their browser) names one. */
    timeZone: text("time_zone"),
    /** Comma-separated review modes (see review-modes.ts). */
    reviewModes: text("review_modes").notNull().default("forward"),
    /** Dictionary URL templates with `{word}` per study language (`{ "de": "https://…/{word}" }`); none: the default. */
    dictionaries: jsonb("dictionaries").$type<Record<string, string>>().notNull().default({}),
    /** The probability of recalling a term when it comes due that the scheduler aims for (0.80–0.97, ADR 062). */
    desiredRetention: doublePrecision("desired_retention").notNull().default(0.9),
    /** Show readings over the words of Japanese and Chinese texts (furigana, pinyin) in the reader. */
    showReadings: boolean("show_readings").notNull().default(true),
    /** Turning a page in the reader marks the page's remaining new words as known (ADR 105); off by default. */
    knownOnPageTurn: boolean("known_on_page_turn").notNull().default(false),
    /** Play a term's sound by itself when the review shows its answer (ADR 126); off by default. */
    autoplaySounds: boolean("autoplay_sounds").notNull().default(false),
    /** Minutes of review a day the learner aims for (ADR 119); a day that reaches it counts in the streak. */
    dailyGoalMinutes: integer("daily_goal_minutes").notNull().default(10),
    /** How the player reads (ADR 141): pause, going on without a grade, the grade of "next", speed; null: defaults. */
    player: jsonb("player").$type<Record<string, unknown>>(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "learner_settings_desired_retention_range",
      sql`${table.desiredRetention} >= 0.8 and ${table.desiredRetention} <= 0.97`,
    ),
    check("learner_settings_daily_goal_range", sql`${table.dailyGoalMinutes} between 1 and 120`),
  ],
);

/**
 * FSRS parameters fitted to a learner's own review log (ADR 062), by the background job in app/learning/fsrs-fit:
 * when, from how many reviews, and how well the defaults and the fitted parameters predict that history (log loss and
 * RMSE over bins, as fsrs-rs evaluates them). `parameters` is null while the log holds too few reviews for the
 * optimizer; the review count then still says when to look again.
 */
export const fsrsParameters = pgTable("fsrs_parameters", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  parameters: jsonb("parameters").$type<number[]>(),
  reviews: integer("reviews").notNull(),
  fittedAt: timestamp("fitted_at", { withTimezone: true }).notNull(),
  defaultLogLoss: doublePrecision("default_log_loss"),
  defaultRmse: doublePrecision("default_rmse"),
  fittedLogLoss: doublePrecision("fitted_log_loss"),
  fittedRmse: doublePrecision("fitted_rmse"),
});
