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
 */
import { randomInt, randomUUID } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { and, count, eq, sql } from "drizzle-orm";
import { users } from "../app/auth/auth.schema.ts";
import { openDatabase, type Database } from "../app/db/open.server.ts";
import { reviewLogs, termExamples, terms } from "../app/learning/learning.schema.ts";
import { applyGrade, GRADES, newCard, stageOf, type CardFields, type GradeName } from "../app/learning/stage.ts";
import { isStudyLanguage, STAGES, type PartOfSpeech, type Stage } from "../app/learning/vocabulary.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const MIGRATIONS_DIR = path.join(ROOT, "drizzle");
/** The advisory lock the server holds while it migrates (app/db/db.server.ts). */
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

const USAGE = `usage: node scripts/seed-terms.ts <email> [--count N] [--language xx] [--batch N] [--seed N] [--json]
  [--learners N] [--reviews M]
  --learners N: N learners, <name>+1@<domain> … <name>+N@<domain> (default 1: the address as given)
  --reviews M: about M review-log rows per learner (reviews given early as needed, the oldest beyond M left out);
               without it, the simulated histories as they come (about 6 per term)
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
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) fail("an e-mail address is required");
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
  };
}

/** The learner's address: as given for one learner, else numbered with a `+` tag. */
function learnerEmail(email: string, index: number, learners: number): string {
  if (learners === 1) return email;
  const at = email.lastIndexOf("@");
  return `${email.slice(0, at)}+${index + 1}${email.slice(at)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Generated vocabulary: deterministic for a given --seed.

/** mulberry32: a small, fast, seedable PRNG. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
function weighted<T>(random: Random, table: readonly (readonly [T, number])[]): T {
  const total = table.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [value, weight] of table) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return table[table.length - 1]![0];
}

/** Roughly the mix of a learner's vocabulary notebook: mostly nouns, verbs and adjectives. */
const POS_WEIGHTS: readonly (readonly [PartOfSpeech, number])[] = [
  ["noun", 38],
  ["verb", 21],
  ["adjective", 15],
  ["adverb", 7],
  ["proper_noun", 3],
  ["adposition", 3],
  ["pronoun", 2],
  ["determiner", 2],
  ["coordinating_conjunction", 2],
  ["interjection", 2],
  ["numeral", 2],
  ["auxiliary", 1],
  ["particle", 1.5],
  ["punctuation", 0.5],
];

const SYLLABLES = (
  "ab ac ad al am an ar as at ba be bi bo bra bri ca ce cha chi co con cor da de di do dra du el em en er es fa fe fi " +
  "fla fo fra ga ge gi gla go gra ha he hi ho in ir is ja ka ke la le li lo lu ma me mi mo mu na ne ni no nu o or pa pe " +
  "pi pla po pra pro qua ra re ri ro ru sa se sha si so sta ste stra su ta te ther ti to tra tri tu un ur va ve vi vo wa " +
  "we wi wo ya yo za ze"
).split(" ");
const ENDINGS = [
  "",
  "",
  "",
  "",
  "ness",
  "ment",
  "er",
  "ing",
  "ed",
  "ly",
  "ous",
  "ful",
  "ic",
  "tion",
  "able",
  "ish",
  "y",
];

const MEANINGS = [
  "a small kind of bird",
  "a place where bread is baked",
  "to walk slowly",
  "very tired",
  "a quick look",
  "the edge of a river",
  "to agree after arguing",
  "cheerful and lively",
  "a tool for cutting wood",
  "to whisper",
  "someone who lends money",
  "a word for an old friend",
  "in other words",
  "an unexpected gift",
  "to fold neatly",
  "the morning meal",
  "rough, uneven",
  "a promise given in words",
  "the last part of a journey",
  "to borrow",
  "a heavy coat",
  "gentle rain",
  "the sound of bells",
  "a narrow street",
  "to look after",
  "a short sleep",
  "bright yellow",
  "the word used for greeting",
  "a bunch of flowers",
  "to hurry",
  "suddenly",
  "a shy person",
  "to forgive",
  "the top of a mountain",
  "by word of mouth",
  "a wooden box",
  "quietly",
  "a riddle or word game",
  "to shout",
  "the day after tomorrow",
  "a busy market",
  "to shiver",
  "a mild cheese",
  "far away",
];
const NOTES = [
  "Heard it in a podcast.",
  "Formal register.",
  "Mostly spoken, rarely written.",
  "Careful: false friend.",
  "Irregular plural.",
  "Stress on the first syllable.",
  "Often used with 'to'.",
  "Slang, do not use at work.",
  "Opposite of the previous word.",
  "Seen in the news.",
  "Common in song lyrics.",
  "Key word for the exam.",
];
const EXAMPLES: readonly (readonly [string, string])[] = [
  ["I wrote {} in my notebook.", "Ich habe {} in mein Heft geschrieben."],
  ["She used {} twice in one sentence.", "Sie hat {} zweimal in einem Satz benutzt."],
  ["Can you say {} more slowly?", "Kannst du {} langsamer sagen?"],
  ["The teacher explained {} again.", "Die Lehrerin hat {} noch einmal erklärt."],
  ["We saw {} on a sign at the station.", "Wir haben {} auf einem Schild am Bahnhof gesehen."],
  ["{} is harder than it looks.", "{} ist schwieriger, als es aussieht."],
  ["He always forgets {}.", "Er vergisst immer {}."],
  ["Is {} the right word here?", "Ist {} hier das richtige Wort?"],
];

function wordFactory(random: Random) {
  const used = new Set<string>();
  return (): string => {
    for (let attempt = 0; ; attempt++) {
      const syllables = 2 + Math.floor(random() * (attempt > 20 ? 4 : 2));
      let word = "";
      for (let i = 0; i < syllables; i++) word += pick(random, SYLLABLES);
      word += pick(random, ENDINGS);
      if (random() < 0.06) word += ` ${pick(random, SYLLABLES)}${pick(random, SYLLABLES)}`; // a few two-word terms
      if (!used.has(word)) {
        used.add(word);
        return word;
      }
    }
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Review histories: FSRS cards as a real learner would leave them.

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
type Review = { rating: number; state: number; reviewedAt: Date; scheduledDays: number };

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

type TermRow = {
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
function generateTerm(random: Random, schedule: Random, nextWord: () => string, now: Date, pace = 1): TermRow {
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

async function seedLearner(db: Database, options: Options, index: number, target: string, kind: string) {
  const started = performance.now();
  const email = learnerEmail(options.email, index, options.learners);
  const user = await findOrCreateUser(db, email, options.language);
  if (user.studyLanguage !== options.language) {
    console.warn(
      `seed-terms: ${email} studies "${user.studyLanguage}", so the "${options.language}" terms will not show until they switch language`,
    );
  }
  const now = new Date();
  const generated = generateLearner(options, index, now);
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
    learnerTermsInLanguage: Number(total?.n ?? 0),
    /** Of the inserted terms (batches with skipped texts are left out of these counts). */
    stages,
    states: { new: states[0], learning: states[1], review: states[2], relearning: states[3] },
    dueNow,
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
    console.log(`  examples: ${insertedExamples}; review-log rows: ${insertedReviews}`);
    console.log(`  stages: ${STAGES.map((stage) => `${stage} ${stages[stage]}`).join(", ")}; due now: ${dueNow}`);
    console.log(
      `  FSRS states: ${Object.entries(summary.states)
        .map(([name, n]) => `${name} ${n}`)
        .join(", ")}`,
    );
    console.log(`  inserts ${summary.insertMs} ms (batches of ${options.batch})`);
  }
}

async function main() {
  const options = readOptions();
  const started = performance.now();
  const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
  const dataDir = process.env.DATA_DIR?.trim() || "./data";
  // The app's own opening: migrations under the same lock, and PGlite's data-directory lock.
  const handle = await openDatabase({ databaseUrl, dataDir, migrationsFolder: MIGRATIONS_DIR });
  const { db } = handle;
  const target = databaseUrl
    ? `PostgreSQL ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}`
    : `PGlite ${path.resolve(dataDir, "pglite")}`;
  try {
    const opened = performance.now();
    for (let index = 0; index < options.learners; index++) await seedLearner(db, options, index, target, handle.kind);
    // Fresh planner statistics after a bulk load, as autovacuum would gather them a little later.
    for (const table of ["terms", "term_examples", "review_logs", "learner_days", "term_stage_days"])
      await db.execute(sql.raw(`analyze ${table}`));
    if (!options.json)
      console.log(
        `open + migrate ${Math.round(opened - started)} ms, ${options.learners} learner(s) in ${Math.round(performance.now() - opened)} ms`,
      );
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(`seed-terms: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
