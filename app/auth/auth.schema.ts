import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** Stored lower-cased: one account per address. */
  email: text("email").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  level: text("level"),
  studyLanguage: text("study_language"),
  /**
   * When the learner answered or skipped the welcome on My home (study language, level, new terms per day); null until
   * then, and My home shows the welcome instead of the dashboard. Learners from before the welcome count as welcomed.
   */
  welcomedAt: timestamp("welcomed_at", { withTimezone: true }),
  /**
   * Counts changes to anything of this learner's that a page shows (their row, terms, examples, reviews, settings,
   * plan, texts, ignored words, import drafts). Kept by database triggers (migration 0008), so every writer, on every
   * instance, moves it; pages kept in memory for the learner are valid only for the version they were drawn from.
   */
  dataVersion: bigint("data_version", { mode: "number" }).notNull().default(0),
  /**
   * Counts changes to the words the reader matches texts against (terms added, removed or renamed, words ignored or no
   * longer ignored), not grades. Kept by database triggers (migration 0009); the reader's index of the vocabulary and
   * the word counts of the text list are valid for one version.
   */
  vocabularyVersion: bigint("vocabulary_version", { mode: "number" }).notNull().default(0),
});

/** The app's own revocable sessions; the cookie names a row by the hash of its random id. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The browser's User-Agent at sign-in, shown to the learner as a device ("Firefox on Linux"). */
    userAgent: text("user_agent").notNull().default(""),
    /** Updated at most every few minutes (see session.server.ts), not on every request. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("sessions_user_idx").on(table.userId), index("sessions_expires_idx").on(table.expiresAt)],
);

/** Sign-in links of the local provider: only the hash of the token is kept, with its expiry and use time. */
export const loginTokens = pgTable(
  "login_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [index("login_tokens_expires_idx").on(table.expiresAt)],
);

/** Counters shared by every server instance: one row per counted event. */
export const rateLimitEvents = pgTable(
  "rate_limit_events",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    key: text("key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (table) => [index("rate_limit_events_key_time_idx").on(table.key, table.createdAt)],
);
