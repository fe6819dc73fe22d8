/**
 * Seeds learners' vocabularies for load tests and benchmarks: creates the users if needed and inserts N terms each
 * (default 10,000) in one study language (default "en"), each with an FSRS card produced by simulating a plausible
 * review history with the app's own scheduler (app/learning/stage.ts) and that history as review-log rows, a part of
 * speech, sometimes notes, and 0–3 examples. Inserts go in batches, one transaction per batch; the tables are analysed
 * at the end.
 *
 *   DATA_DIR=./data node scripts/seed-terms.ts you@example.com [--count 10000] [--language en] [--batch 500] [--seed 42]
 *   npm run seed -- bench@example.com --learners 20 --count 1000 --reviews 20000
 *   DATABASE_URL=postgres://… node scripts/seed-terms.ts you@example.com
 *   npm run seed -- you@example.com --count 2000
 *
 * DATABASE_URL wins over DATA_DIR, as in the app. The database is opened and migrated by the app's own code
 * (app/db/open.server.ts), so a fresh database or data directory works. PGlite is single-process: with DATA_DIR the
 * server must be stopped; the script takes the app's DATA_DIR lock and refuses to run while the server holds it.
 * Existing terms of the learner are kept; a generated text the learner already has is skipped.
 *
 *   DATABASE_URL=postgres://… npm run seed -- --bulk --learners 10000
 *
 * `--bulk` seeds many learners in minutes instead: bench+1@example.com … bench+N@example.com with 1,000 terms and one
 * review log each, written by SQL inside PostgreSQL (scripts/db-scale/seed.sql, the app's triggers off and the columns
 * and aggregates they keep written directly) into a freshly migrated, empty database. PostgreSQL only.
 */
import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { and, count, eq, sql } from "drizzle-orm";
import { users } from "../app/auth/auth.schema.ts";
import { openDatabase, type Database } from "../app/db/open.server.ts";
import { reviewLogs, termExamples, terms } from "../app/learning/learning.schema.ts";
import { stageOf } from "../app/learning/stage.ts";
import { isStudyLanguage, STAGES, type Stage } from "../app/learning/vocabulary.ts";
import { DAY_MS, generateTerm, type TermRow } from "./seed/histories.ts";
import { insertKnownWords, knownWordList } from "./seed/known-words.ts";
import { prng, wordFactory } from "./seed/vocabulary.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const MIGRATIONS_DIR = path.join(ROOT, "drizzle");

const USAGE = `usage: node scripts/seed-terms.ts <email> [--count N] [--language xx] [--batch N] [--seed N] [--json]
  [--learners N] [--reviews M] [--away DAYS] [--known K]
       node scripts/seed-terms.ts --bulk --learners N   (PostgreSQL: N learners x 1,000 terms by SQL, in minutes)
  --learners N: N learners, <name>+1@<domain> … <name>+N@<domain> (default 1: the address as given)
  --reviews M: about M review-log rows per learner (reviews given early as needed, the oldest beyond M left out);
               without it, the simulated histories as they come (about 6 per term)
  --away DAYS: the learners last reviewed DAYS days ago, so what fell due since then is due now (default 0)
  --known K: K known words per learner as well (the reader's "I know this word", scripts/seed/known-words.ts)
  with DATABASE_URL=postgres://… (PostgreSQL) or DATA_DIR=dir (PGlite in dir/pglite; default ./data, server stopped)`;

type Options = {
  email: string;
  count: number;
  language: string;
  batch: number;
  seed: number;
  json: boolean;
  learners: number;
  reviews: number | null;
  /** Days since the learners' last review: their histories end that long ago. */
  away: number;
  /** Known words per learner (ignored_words), besides the terms. */
  known: number;
  bulk: boolean;
};

function fail(message: string): never {
  console.error(`seed-terms: ${message}\n${USAGE}`);
  process.exit(2);
}

function readOptions(): Options {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        email: { type: "string" },
        count: { type: "string", default: "10000" },
        language: { type: "string", default: "en" },
        batch: { type: "string", default: "500" },
        seed: { type: "string" },
        json: { type: "boolean", default: false },
        learners: { type: "string", default: "1" },
        reviews: { type: "string" },
        away: { type: "string", default: "0" },
        known: { type: "string", default: "0" },
        bulk: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const email = (values.email ?? positionals[0] ?? process.env.SEED_EMAIL ?? "").trim().toLowerCase();
  if (!values.bulk && !/^[^\s@]+@[^\s@]+$/.test(email)) fail("an e-mail address is required");
  const integer = (name: string, text: string, min: number, max: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max)
      fail(`--${name} must be an integer from ${min} to ${max}`);
    return value;
  };
  const language = values.language;
  if (!isStudyLanguage(language)) fail(`--language must be an ISO 639-1 code, got ${JSON.stringify(language)}`);
  return {
    email,
    count: integer("count", values.count, 0, 1_000_000),
    language,
    // 19 parameters a row: 3,000 rows stay under PostgreSQL's 65,535 parameters per statement.
    batch: integer("batch", values.batch, 1, 3_000),
    seed: values.seed === undefined ? randomInt(2 ** 31) : integer("seed", values.seed, 0, 2 ** 31),
    json: values.json,
    learners: integer("learners", values.learners, 1, 10_000),
    reviews: values.reviews === undefined ? null : integer("reviews", values.reviews, 0, 10_000_000),
    away: integer("away", values.away, 0, 365),
    known: integer("known", values.known, 0, 1_000_000),
    bulk: values.bulk,
  };
}

/** The learner's address: as given for one learner, else numbered with a `+` tag. */
function learnerEmail(email: string, index: number, learners: number): string {
  if (learners === 1) return email;
  const at = email.lastIndexOf("@");
  return `${email.slice(0, at)}+${index + 1}${email.slice(at)}`;
}

// ---------------------------------------------------------------------------------------------------------------

async function findOrCreateUser(
  db: Database,
  email: string,
  language: string,
): Promise<{ id: string; studyLanguage: string | null; created: boolean }> {
  const [created] = await db
    .insert(users)
    .values({ email, studyLanguage: language })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  if (created) return { id: created.id, studyLanguage: language, created: true };
  const [existing] = await db
    .select({ id: users.id, studyLanguage: users.studyLanguage })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  if (!existing) throw new Error(`user ${email} vanished`);
  if (existing.studyLanguage === null)
    await db.update(users).set({ studyLanguage: language }).where(eq(users.id, existing.id));
  return { id: existing.id, studyLanguage: existing.studyLanguage ?? language, created: false };
}

/** Inserts one batch in one transaction; returns how many terms and examples went in (known texts are skipped). */
async function insertBatch(
  db: Database,
  userId: string,
  language: string,
  batch: TermRow[],
): Promise<{ terms: number; examples: number; reviews: number }> {
  return db.transaction(async (tx) => {
    const rows = batch.map((term) => ({
      id: term.id,
      userId,
      language,
      text: term.text,
      meaning: term.meaning,
      partOfSpeech: term.partOfSpeech,
      notes: term.notes,
      createdAt: term.createdAt,
      updatedAt: term.card.lastReview ?? term.createdAt,
      ...term.card,
    }));
    const inserted = await tx.insert(terms).values(rows).onConflictDoNothing().returning({ id: terms.id });
    const ids = new Set(inserted.map((row) => row.id));
    const examples = batch
      .filter((term) => ids.has(term.id))
      .flatMap((term) => term.examples.map((example) => ({ termId: term.id, ...example })));
    // Examples in chunks too: 4 parameters each.
    for (let start = 0; start < examples.length; start += 2_000) {
      await tx.insert(termExamples).values(examples.slice(start, start + 2_000));
    }
    // Review logs in chunks of 2,000 (5 parameters each); the database adds them to the statistics' aggregates.
    const logs = batch
      .filter((term) => ids.has(term.id))
      .flatMap((term) => term.reviews.map((review) => ({ termId: term.id, ...review })));
    for (let start = 0; start < logs.length; start += 2_000) {
      await tx.insert(reviewLogs).values(logs.slice(start, start + 2_000));
    }
    return { terms: ids.size, examples: examples.length, reviews: logs.length };
  });
}

/**
 * One learner's terms, generated whole so that `--reviews` can be met: reviews are given earlier (a lower pace) until
 * the histories hold at least that many, then only the newest that many are kept.
 */
function generateLearner(options: Options, index: number, now: Date): TermRow[] {
  const generate = (pace: number) => {
    const random = prng(options.seed + index);
    const schedule = prng((options.seed + index) ^ 0x5bd1e995);
    const nextWord = wordFactory(random);
    return Array.from({ length: options.count }, () => generateTerm(random, schedule, nextWord, now, pace));
  };
  const total = (rows: TermRow[]) => rows.reduce((sum, term) => sum + term.reviews.length, 0);
  let pace = 1;
  let rows = generate(pace);
  if (options.reviews === null) return rows;
  while (total(rows) < options.reviews && pace > 0.02) rows = generate((pace /= 1.5));
  const times = rows.flatMap((term) => term.reviews.map((review) => review.reviewedAt.getTime())).sort((a, b) => b - a);
  if (times.length <= options.reviews) return rows;
  const oldestKept = times[options.reviews - 1]!;
  let room = options.reviews - times.filter((time) => time > oldestKept).length;
  return rows.map((term) => ({
    ...term,
    reviews: term.reviews.filter((review) => {
      const time = review.reviewedAt.getTime();
      if (time > oldestKept) return true;
      return time === oldestKept && room-- > 0;
    }),
  }));
}

/**
 * ANALYZE of one table. On PostgreSQL, autovacuum may be at the freshly loaded table at the same moment: an analysis
 * waits for its lock (and may run past the statement deadline), and of two analyses writing the same statistics the
 * second fails ("tuple concurrently updated"). Tried again a few times, then left to autovacuum with a warning that
 * names the cause, since the statistics only help the planner.
 */
async function analyze(db: Database, table: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.execute(sql.raw(`analyze ${table}`));
      return;
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      if (attempt === 3) {
        console.warn(`seed-terms: analyze ${table} failed, left to autovacuum: ${String(cause)}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

function lastReview(rows: TermRow[]): string | null {
  let newest = Number.NEGATIVE_INFINITY;
  for (const term of rows) for (const review of term.reviews) newest = Math.max(newest, review.reviewedAt.getTime());
  return Number.isFinite(newest) ? new Date(newest).toISOString() : null;
}

/** @param openMs how long opening the database (and migrating it) took before the first learner */
async function seedLearner(
  db: Database,
  options: Options,
  index: number,
  target: string,
  kind: string,
  openMs: number,
) {
  const started = performance.now();
  const email = learnerEmail(options.email, index, options.learners);
  const user = await findOrCreateUser(db, email, options.language);
  if (user.studyLanguage !== options.language) {
    console.warn(
      `seed-terms: ${email} studies "${user.studyLanguage}", so the "${options.language}" terms will not show until they switch language`,
    );
  }
  const now = new Date();
  const generated = generateLearner(options, index, new Date(now.getTime() - options.away * DAY_MS));
  const stages = Object.fromEntries(STAGES.map((stage) => [stage, 0])) as Record<Stage, number>;
  const states = [0, 0, 0, 0];
  let insertedTerms = 0;
  let insertedExamples = 0;
  let insertedReviews = 0;
  let dueNow = 0;
  for (let start = 0; start < options.count; start += options.batch) {
    const batch = generated.slice(start, start + options.batch);
    const result = await insertBatch(db, user.id, options.language, batch);
    insertedTerms += result.terms;
    insertedExamples += result.examples;
    insertedReviews += result.reviews;
    if (result.terms === batch.length) {
      for (const term of batch) {
        stages[stageOf(term.card, now)]++;
        states[term.card.state] = (states[term.card.state] ?? 0) + 1;
        if (term.card.due.getTime() <= now.getTime()) dueNow++;
      }
    }
    if (!options.json && process.stdout.isTTY)
      process.stdout.write(`\r  ${email}: ${start + batch.length}/${options.count} terms`);
  }
  if (!options.json && process.stdout.isTTY) process.stdout.write("\n");
  const knownWords = await insertKnownWords(db, user.id, options.language, knownWordList(options.known, options.seed));
  const [total] = await db
    .select({ n: count() })
    .from(terms)
    .where(and(eq(terms.userId, user.id), eq(terms.language, options.language)));
  const summary = {
    target,
    database: kind,
    email,
    userId: user.id,
    userCreated: user.created,
    language: options.language,
    seed: options.seed + index,
    requested: options.count,
    insertedTerms,
    skippedTerms: options.count - insertedTerms,
    insertedExamples,
    insertedReviews,
    knownWords,
    learnerTermsInLanguage: Number(total?.n ?? 0),
    /** Of the inserted terms (batches with skipped texts are left out of these counts). */
    stages,
    states: { new: states[0], learning: states[1], review: states[2], relearning: states[3] },
    dueNow,
    /** The newest review in the generated histories (null without any): `--away` days ago or later. */
    lastReviewAt: lastReview(generated),
    openMs,
    insertMs: Math.round(performance.now() - started),
  };
  if (options.json) {
    console.log(JSON.stringify(summary));
  } else {
    console.log(
      `Seeded ${target} for ${email} (${user.created ? "new user" : "existing user"} ${user.id}), language "${options.language}", seed ${summary.seed}`,
    );
    console.log(
      `  terms: ${insertedTerms} inserted, ${summary.skippedTerms} skipped (text already there); ${summary.learnerTermsInLanguage} in total`,
    );
    console.log(`  examples: ${insertedExamples}; review-log rows: ${insertedReviews}; known words: ${knownWords}`);
    console.log(`  stages: ${STAGES.map((stage) => `${stage} ${stages[stage]}`).join(", ")}; due now: ${dueNow}`);
    console.log(
      `  FSRS states: ${Object.entries(summary.states)
        .map(([name, n]) => `${name} ${n}`)
        .join(", ")}`,
    );
    console.log(`  inserts ${summary.insertMs} ms (batches of ${options.batch})`);
  }
}

/** N learners of 1,000 terms by scripts/db-scale/seed.sql, sent as one script (its psql lines left out). */
async function bulkSeed(databaseUrl: string, learners: number) {
  const script = readFileSync(path.join(ROOT, "scripts/db-scale/seed.sql"), "utf8")
    .split("\n")
    .filter((line) => !line.startsWith("\\"))
    .join("\n")
    .replaceAll(":learners", String(learners));
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const [row] = (await client.query("select count(*)::int as n from users")).rows as { n: number }[];
    if (row!.n > 0) throw new Error(`--bulk needs an empty database; this one has ${row!.n} users`);
    // One statement at a time (VACUUM cannot run in the implicit transaction of a multi-statement query); a `$$`
    // body is kept whole.
    let statement = "";
    for (const piece of script.split(/;\s*\n/)) {
      statement += (statement ? ";\n" : "") + piece;
      if ((statement.match(/\$\$/g)?.length ?? 0) % 2 === 1) continue;
      if (statement.replace(/--.*$/gm, "").trim()) await client.query(statement);
      statement = "";
    }
  } finally {
    await client.end();
  }
}

async function main() {
  const options = readOptions();
  const started = performance.now();
  const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
  const dataDir = process.env.DATA_DIR?.trim() || "./data";
  if (options.bulk && !databaseUrl) fail("--bulk writes into PostgreSQL: set DATABASE_URL");
  // The app's own opening: migrations under the same lock, and PGlite's data-directory lock.
  const handle = await openDatabase({ databaseUrl, dataDir, migrationsFolder: MIGRATIONS_DIR });
  if (options.bulk) {
    await handle.close();
    await bulkSeed(databaseUrl!, options.learners);
    console.log(`${options.learners} learner(s) x 1,000 terms in ${Math.round(performance.now() - started)} ms`);
    return;
  }
  const { db } = handle;
  const target = databaseUrl
    ? `PostgreSQL ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}`
    : `PGlite ${path.resolve(dataDir, "pglite")}`;
  try {
    const opened = performance.now();
    const openMs = Math.round(opened - started);
    for (let index = 0; index < options.learners; index++)
      await seedLearner(db, options, index, target, handle.kind, openMs);
    // Fresh planner statistics after a bulk load, as autovacuum would gather them a little later.
    for (const table of ["terms", "term_examples", "review_logs", "learner_days", "term_stage_days", "ignored_words"])
      await analyze(db, table);
    if (!options.json)
      console.log(
        `open + migrate ${openMs} ms, ${options.learners} learner(s) in ${Math.round(performance.now() - opened)} ms`,
      );
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  const cause = error instanceof Error && error.cause ? ` (${String(error.cause)})` : "";
  console.error(`seed-terms: ${error instanceof Error ? error.message : String(error)}`.slice(0, 2_000) + cause);
  process.exit(1);
});
