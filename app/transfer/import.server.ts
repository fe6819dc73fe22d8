import { lowerFor } from "../reading/segment";
import { randomUUID } from "node:crypto";
import { and, eq, lt, sql, TransactionRollbackError } from "drizzle-orm";
import { attachDraftSounds, draftSoundNames, soundBytesOf } from "../learning/sounds.server";
import { SOUNDS_PER_LEARNER_BYTES } from "../learning/sounds";
import type { Database } from "../db/db.server";
import { inIndexOrder } from "../db/index-order.server";
import { terms } from "../learning/learning.schema";
import { roomForTerms } from "../learning/limits.server";
import { applyGrade, newCard, type CardFields } from "../learning/stage";
import { fitSoon } from "../learning/fsrs-fit.server";
import type { Owner } from "../learning/terms.server";
import type { OptionalPartOfSpeech } from "../learning/vocabulary";
import {
  exportEnvelope,
  exportedKnownWord,
  exportedTerm,
  looksLikeJsonExport,
  MAX_KNOWN_WORDS,
  type ExportedKnownWord,
  type ExportedTerm,
} from "./export-document";
import { setImmediate as nextTurn } from "node:timers/promises";
import { looksLikeAnkiDraft, parseAnkiDraft } from "./anki-import.server";
import { htmlToText, readTable, type ImportTable } from "./import-file.server";
import { guessMapping, mapRows, RAW_CELL_LIMIT, type ImportRow } from "./import-rows.server";
import type { RowProblem, Target } from "./targets";
import { importDraftParts, importDrafts } from "./transfer.schema";
import { knownRowsOf } from "./known-rows.server";

/** More rows than this are refused as a whole (the limit is far above the 10,000 a learner moves at once). */
export const MAX_ROWS = 20_000;
const DRAFT_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Rows per statement when reading the learner's terms back (a few hundred small rows: a few milliseconds). */
const BATCH = 500;
/**
 * Terms per statement of an import. The embedded database runs a statement on the event loop without a break (its
 * triggers included, about 30 ms for 500 terms on an idle machine, twice that on a busy one), and the import lets
 * other requests run between statements: a few dozen terms each. PostgreSQL runs them in its own process, where fewer
 * and larger statements cost less.
 */
const INSERT_BATCH = { embedded: 50, postgresql: 500 };
/** PGlite, which runs on this thread (drizzle's `$client`; a pg Pool has no `waitReady`). */
const isEmbedded = (db: Database) => "waitReady" in ((db as { $client?: object }).$client ?? {});
/** Rows of a table mapped to terms between two turns of the event loop (about 10 ms). */
const ROWS_PER_TURN = 2_000;

export type Draft = typeof importDrafts.$inferSelect & { content: string };
export type ImportOptions = { mapping: Target[] | null; partOfSpeech: OptionalPartOfSpeech };

/** Characters of a draft per part (at most about 1 MB in UTF-8): one statement each, with a turn between them. */
const DRAFT_PART_CHARS = 256 * 1024;

/** Keeps an upload until it is confirmed; the learner's older drafts and any draft older than a day are dropped. */
export async function saveDraft(db: Database, owner: Owner, fileName: string, content: string, now = new Date()) {
  await db
    .delete(importDrafts)
    .where(
      sql`${importDrafts.userId} = ${owner.userId} or ${lt(importDrafts.createdAt, new Date(now.getTime() - DRAFT_LIFETIME_MS))}`,
    );
  const text = content.replaceAll("\u0000", "");
  return db.transaction(async (tx) => {
    const [draft] = await tx
      .insert(importDrafts)
      .values({ userId: owner.userId, language: owner.language, fileName, createdAt: now })
      .returning({ id: importDrafts.id });
    for (let part = 0; part === 0 || part * DRAFT_PART_CHARS < text.length; part++) {
      if (part > 0) await nextTurn();
      const piece = text.slice(part * DRAFT_PART_CHARS, (part + 1) * DRAFT_PART_CHARS);
      await tx.insert(importDraftParts).values({ draftId: draft!.id, part, content: piece });
    }
    return draft!.id;
  });
}

export async function findDraft(db: Database, userId: string, id: string): Promise<Draft | null> {
  const [draft] = await db
    .select()
    .from(importDrafts)
    .where(and(eq(importDrafts.id, id), eq(importDrafts.userId, userId)))
    .limit(1);
  if (!draft) return null;
  const pieces: string[] = [];
  for (let part = 0; ; part++) {
    if (part > 0) await nextTurn();
    const [row] = await db
      .select({ content: importDraftParts.content })
      .from(importDraftParts)
      .where(and(eq(importDraftParts.draftId, draft.id), eq(importDraftParts.part, part)));
    if (!row) break;
    pieces.push(row.content);
  }
  return { ...draft, content: pieces.join("") };
}

export async function deleteDraft(db: Database, userId: string, id: string) {
  await db.delete(importDrafts).where(and(eq(importDrafts.id, id), eq(importDrafts.userId, userId)));
}

/**
 * A candidate term of either source: a table row (new card, or from an Anki package its graded reviews as
 * [time in ms, grade]) or an entry of a JSON export (everything kept).
 */
type Candidate = {
  line: number;
  language: string;
  row?: ImportRow;
  reviews?: [number, number][];
  exported?: ExportedTerm;
  /** The name of the Anki note's sound, kept with the draft when the package held it (ADR 126). */
  sound?: string;
};

export type Parsed = {
  kind: "csv" | "tsv" | "anki" | "json" | "apkg";
  headers: string[];
  mapping: Target[];
  /** The cells of the first row, shown beside the mapping so the learner recognises each column. */
  firstCells: string[];
  candidates: Candidate[];
  /** A JSON export's known words (ADR 105), each valid; none from other files. */
  knownWords?: ExportedKnownWord[];
  problems: RowProblem[];
  /** The whole file is unusable: a translation key. */
  fileError: "unreadable" | "empty" | "tooManyRows" | null;
  /** An Anki package's older reviews left out (each note keeps its newest). */
  reviewsLeftOut?: number;
};

/** Anki notes whose reviews are replayed between turns of the event loop (each review is one FSRS step). */
const REPLAYS_PER_TURN = 25;

/** JSON entries checked between turns of the event loop (each a few microseconds, a long history more). */
const ENTRIES_PER_TURN = 200;

/**
 * Reads a draft under a mapping (a table) or as a JSON export; nothing touches the database. The work is done in
 * slices with turns of the event loop between them, so a large upload never holds other requests.
 */
export async function parseDraft(draft: Draft, options: ImportOptions): Promise<Parsed> {
  const none = { headers: [], mapping: [], firstCells: [], candidates: [], problems: [] };
  if (looksLikeJsonExport(draft.content)) {
    let envelope;
    try {
      envelope = exportEnvelope.safeParse(JSON.parse(draft.content));
    } catch {
      return { kind: "json", ...none, fileError: "unreadable" };
    }
    if (!envelope.success) return { kind: "json", ...none, fileError: "unreadable" };
    if (envelope.data.terms.length > MAX_ROWS) return { kind: "json", ...none, fileError: "tooManyRows" };
    const candidates: Candidate[] = [];
    const problems: RowProblem[] = [];
    for (const [index, entry] of envelope.data.terms.entries()) {
      if (index % ENTRIES_PER_TURN === ENTRIES_PER_TURN - 1) await nextTurn();
      const term = exportedTerm.safeParse(entry);
      if (term.success) candidates.push({ line: index + 1, language: term.data.language, exported: term.data });
      else problems.push({ line: index + 1, reason: "invalidEntry" });
    }
    const knownWords: ExportedKnownWord[] = [];
    for (const [index, entry] of (envelope.data.knownWords ?? []).entries()) {
      if (index % (ENTRIES_PER_TURN * 10) === ENTRIES_PER_TURN * 10 - 1) await nextTurn();
      const known = exportedKnownWord.safeParse(entry);
      if (known.success) knownWords.push(known.data);
    }
    if (candidates.length + problems.length + knownWords.length === 0)
      return { kind: "json", ...none, fileError: "empty" };
    return {
      kind: "json",
      headers: [],
      mapping: [],
      firstCells: [],
      candidates,
      knownWords,
      problems,
      fileError: null,
    };
  }
  if (looksLikeAnkiDraft(draft.content)) {
    const anki = await parseAnkiDraft(draft.content);
    if (!anki) return { kind: "apkg", ...none, fileError: "unreadable" };
    // Notes our export tagged as known words come back as known words (ADR 126), the others as terms.
    const knownWords = ankiKnownWords(anki.notes, draft);
    const table: ImportTable = {
      kind: "apkg",
      headers: anki.fields,
      rows: anki.notes.flatMap((note, index) => (note.k ? [] : [{ line: index + 1, cells: note.f }])),
      html: true,
    };
    if (table.rows.length === 0 && knownWords.length > 0) return { kind: "apkg", ...none, knownWords, fileError: null };
    const parsed = await fromTable(draft, table, options, (line) => anki.notes[line - 1]);
    return { ...parsed, knownWords, reviewsLeftOut: anki.omitted ?? 0 };
  }
  let table;
  try {
    table = await readTable(draft.content);
  } catch {
    return { kind: "csv", ...none, fileError: "unreadable" };
  }
  if (table.rows.length > MAX_KNOWN_WORDS) return { kind: table.kind, ...none, fileError: "tooManyRows" };
  // Rows of kind "known" (the known words' CSV) are known words; the rest are terms.
  const { table: termRows, knownWords } = await knownRowsOf(table, draft.language);
  if (knownWords.length > 0 && termRows.rows.length === 0)
    return { kind: table.kind, ...none, knownWords, fileError: null };
  return { ...(await fromTable(draft, termRows, options)), knownWords };
}

/** A table's rows under the learner's mapping (or the guessed one), with an Anki note's reviews where there are some. */
async function fromTable(
  draft: Draft,
  table: ImportTable,
  options: ImportOptions,
  ankiNote?: (line: number) => { r: [number, number][]; l?: string; s?: string } | undefined,
): Promise<Parsed> {
  const none = { headers: [], mapping: [], firstCells: [], candidates: [], problems: [] };
  if (table.rows.length === 0) return { kind: table.kind, ...none, fileError: "empty" };
  if (table.rows.length > MAX_ROWS) return { kind: table.kind, ...none, fileError: "tooManyRows" };
  const guessed = guessMapping(table);
  const mapping = options.mapping && options.mapping.length === guessed.length ? options.mapping : guessed;
  const rows: ImportRow[] = [];
  const problems: RowProblem[] = [];
  for (let at = 0; at < table.rows.length; at += ROWS_PER_TURN) {
    if (at > 0) await nextTurn();
    const slice = mapRows({ ...table, rows: table.rows.slice(at, at + ROWS_PER_TURN) }, mapping, options.partOfSpeech);
    rows.push(...slice.rows);
    problems.push(...slice.problems);
  }
  const firstCells = table.rows[0]!.cells.slice(0, mapping.length);
  return {
    kind: table.kind,
    headers: table.headers,
    mapping,
    // Shown as text: an Anki field's markup and media references never reach the page.
    firstCells: table.html ? firstCells.map((cell) => htmlToText(cell.slice(0, RAW_CELL_LIMIT))) : firstCells,
    // An Anki note from our own export goes back into its deck's study language; any other into the draft's.
    candidates: rows.map((row) => {
      const note = ankiNote?.(row.line);
      return {
        line: row.line,
        language: note?.l ?? draft.language,
        row,
        ...(note ? { reviews: note.r } : {}),
        ...(note?.s ? { sound: note.s } : {}),
      };
    }),
    problems,
    fileError: null,
  };
}

const key = (language: string, text: string) => `${language}\u0000${text.toLowerCase()}`;

/** Splits candidates into new terms and duplicates (already the learner's, or earlier in the same file). */
async function withoutDuplicates(db: Database, userId: string, candidates: Candidate[]) {
  const seen = new Set<string>();
  // Along the index of the learner's lower-cased texts, a few hundred rows per statement with a turn between them.
  let after: { language: string; text: string } | null = null;
  for (;;) {
    const from: { language: string; text: string } | null = after;
    const rows: { language: string; text: string }[] = await inIndexOrder(db, (tx) =>
      tx
        .select({ language: terms.language, text: sql<string>`lower(${terms.text})` })
        .from(terms)
        .where(
          and(
            eq(terms.userId, userId),
            from ? sql`(${terms.language}, lower(${terms.text})) > (${from.language}, ${from.text})` : undefined,
          ),
        )
        .orderBy(terms.language, sql`lower(${terms.text})`)
        .limit(BATCH),
    );
    for (const row of rows) seen.add(key(row.language, row.text));
    if (rows.length < BATCH) break;
    after = rows.at(-1)!;
    await nextTurn();
  }
  const fresh: Candidate[] = [];
  let duplicates = 0;
  for (const candidate of candidates) {
    const k = key(candidate.language, candidate.row?.text ?? candidate.exported!.text);
    if (seen.has(k)) duplicates++;
    else {
      seen.add(k);
      fresh.push(candidate);
    }
  }
  return { fresh, duplicates };
}

/** What the preview page shows: the mapping, the first rows, every problem and the counts (sounds kept among them). */
export async function previewImport(db: Database, userId: string, draft: Draft, options: ImportOptions) {
  const parsed = await parseDraft(draft, options);
  const { fresh, duplicates } = await withoutDuplicates(db, userId, parsed.candidates);
  const kept = parsed.kind === "apkg" ? await draftSoundNames(db, draft.id) : new Set<string>();
  const sounds = fresh.filter((candidate) => candidate.sound && kept.has(candidate.sound)).length;
  return { ...parsed, fresh, duplicates, sounds };
}

/** The known words of an Anki package's notes tagged by our export (their first field is the word). */
function ankiKnownWords(notes: { f: string[]; l?: string; k?: 1 }[], draft: Draft): ExportedKnownWord[] {
  return notes.flatMap((note) => {
    const word = htmlToText((note.f[0] ?? "").slice(0, RAW_CELL_LIMIT)).slice(0, 200);
    return note.k && word ? [{ language: note.l ?? draft.language, word, markedAt: draft.createdAt }] : [];
  });
}

/**
 * Imports a draft in one transaction (all or nothing): new terms with their examples and, from a JSON export, their
 * FSRS cards and review history. Duplicates and bad rows are skipped, as the preview said. Rows travel as one JSON
 * parameter per batch (jsonb_to_recordset), which PGlite and PostgreSQL take far faster than thousands of parameters;
 * between batches the event loop turns (an awaited statement alone does not let other requests in).
 */
export async function commitImport(db: Database, owner: Owner, draft: Draft, options: ImportOptions, now = new Date()) {
  const parsed = await parseDraft(draft, options);
  if (parsed.fileError)
    return { imported: 0, duplicates: 0, problems: parsed.problems.length, fileError: parsed.fileError };
  const perStatement = isEmbedded(db) ? INSERT_BATCH.embedded : INSERT_BATCH.postgresql;
  const result = await db
    .transaction(async (tx) => {
      const { fresh, duplicates } = await withoutDuplicates(tx, owner.userId, parsed.candidates);
      if (!(await roomForTerms(tx, owner.userId, fresh.length))) return null;
      for (let start = 0; start < fresh.length; start += perStatement) {
        if (start > 0) await nextTurn();
        const batch = [];
        for (const candidate of fresh.slice(start, start + perStatement)) {
          // Replaying a long history is the slow part of an Anki import: a turn every few terms.
          if (candidate.reviews?.length && batch.length % REPLAYS_PER_TURN === 0) await nextTurn();
          const id = randomUUID();
          batch.push({ id, candidate, replayed: replay(candidate.reviews ?? [], now, id) });
        }
        await insertTerms(
          tx,
          batch.map(({ id, candidate, replayed }) => ({ id, ...termValues(owner.userId, candidate, now, replayed) })),
        );
        await attachDraftSounds(
          tx,
          owner.userId,
          draft.id,
          batch.flatMap(({ id, candidate }) => (candidate.sound ? [[id, candidate.sound] as [string, string]] : [])),
        );
        await nextTurn();
        await insertExamples(
          tx,
          batch.flatMap(({ id, candidate }) =>
            // A file's examples keep their order: each a millisecond after the one before it.
            (candidate.exported?.examples ?? candidate.row?.examples ?? []).map((e, index) => ({
              term_id: id,
              sentence: e.sentence,
              translation: e.translation,
              created_at: "createdAt" in e ? (e.createdAt as Date) : new Date(now.getTime() + index),
            })),
          ),
        );
        await nextTurn();
        await insertReviews(
          tx,
          batch.flatMap(({ id, candidate, replayed }) =>
            (candidate.exported?.reviews ?? replayed?.reviews ?? []).map((r) => ({
              term_id: id,
              rating: r.rating,
              state: r.state,
              reviewed_at: r.reviewedAt,
              scheduled_days: r.scheduledDays,
            })),
          ),
        );
      }
      await insertKnownWords(tx, owner.userId, parsed.knownWords ?? [], perStatement * 10);
      // Sounds past the learner's limit (they were within it at upload, other imports may have come since): nothing.
      if ((await soundBytesOf(tx, owner.userId)) > SOUNDS_PER_LEARNER_BYTES) tx.rollback();
      await tx.delete(importDrafts).where(eq(importDrafts.id, draft.id));
      return { imported: fresh.length, duplicates };
    })
    .catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return "soundLimit" as const;
      throw error;
    });
  if (result === "soundLimit")
    return { imported: 0, duplicates: 0, problems: parsed.problems.length, fileError: "soundLimit" as const };
  if (!result) return { imported: 0, duplicates: 0, problems: parsed.problems.length, fileError: "termLimit" as const };
  // A review history came in: the learner's FSRS parameters may be fitted now, in the background (ADR 062).
  if (parsed.candidates.some((candidate) => candidate.reviews?.length || candidate.exported?.reviews.length))
    fitSoon(db);
  return { ...result, problems: parsed.problems.length, fileError: null };
}

const json = (rows: object[]) => sql`${JSON.stringify(rows)}::jsonb`;

/** A JSON export's known words, lower-cased as the reader does; words the learner knows already keep their day. */
async function insertKnownWords(tx: Database, userId: string, words: ExportedKnownWord[], perStatement: number) {
  for (let start = 0; start < words.length; start += perStatement) {
    await nextTurn();
    const rows = words.slice(start, start + perStatement).map((known) => ({
      language: known.language,
      word: lowerFor(known.language, known.word.trim()),
      created_at: known.markedAt,
    }));
    await tx.execute(sql`insert into ignored_words (user_id, language, word, created_at)
      select ${userId}, language, word, created_at
      from jsonb_to_recordset(${json(rows)}) as x(language text, word text, created_at timestamptz)
      on conflict do nothing`);
  }
}

async function insertTerms(tx: Database, rows: (ReturnType<typeof termValues> & { id: string })[]) {
  if (rows.length === 0) return;
  await tx.execute(sql`insert into terms (id, user_id, language, text, reading, meaning, part_of_speech, notes, created_at,
    updated_at, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review)
    select id, user_id, language, text, reading, meaning, part_of_speech, notes, created_at, updated_at, due, stability,
    difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review
    from jsonb_to_recordset(${json(rows)}) as x(id uuid, user_id uuid, language text, text text, reading text, meaning text,
    part_of_speech text, notes text, created_at timestamptz, updated_at timestamptz, due timestamptz,
    stability float8, difficulty float8, elapsed_days int, scheduled_days int, learning_steps int, reps int, lapses int,
    state smallint, last_review timestamptz)`);
}

async function insertExamples(tx: Database, rows: object[]) {
  if (rows.length === 0) return;
  await tx.execute(sql`insert into term_examples (term_id, sentence, translation, created_at)
    select * from jsonb_to_recordset(${json(rows)}) as x(term_id uuid, sentence text, translation text, created_at timestamptz)`);
}

async function insertReviews(tx: Database, rows: object[]) {
  if (rows.length === 0) return;
  await tx.execute(sql`insert into review_logs (term_id, rating, state, reviewed_at, scheduled_days)
    select * from jsonb_to_recordset(${json(rows)}) as x(term_id uuid, rating smallint, state smallint,
    reviewed_at timestamptz, scheduled_days int)`);
}

/**
 * The FSRS card and review log of an Anki note's graded reviews, replayed in time order through the same scheduler as
 * a review here (Anki's own intervals came from its scheduler, not ours), fuzzed by the id the term will have; null
 * without reviews. The term counts as created at its first review.
 */
function replay(reviews: [number, number][], now: Date, termId: string) {
  if (reviews.length === 0) return null;
  const sorted = reviews.filter(([at]) => at <= now.getTime()).sort((a, b) => a[0] - b[0]);
  const first = new Date(sorted[0]?.[0] ?? now.getTime());
  let card: CardFields = newCard(first);
  const log = sorted.map(([at, grade]) => {
    const reviewedAt = new Date(at);
    const state = card.state;
    card = applyGrade(card, grade as 1 | 2 | 3 | 4, reviewedAt, undefined, termId);
    return { rating: grade, state, reviewedAt, scheduledDays: card.scheduledDays };
  });
  return { card, reviews: log, createdAt: first };
}

/** A term row in the column names of the table (snake case, as jsonb_to_recordset reads them). */
function termValues(userId: string, candidate: Candidate, now: Date, replayed: ReturnType<typeof replay> = null) {
  const card = candidate.exported?.card ?? replayed?.card ?? newCard(now);
  const created = replayed?.createdAt ?? now;
  const term = candidate.exported ?? { ...candidate.row!, createdAt: created, updatedAt: now };
  return {
    user_id: userId,
    language: candidate.language,
    text: term.text,
    reading: term.reading,
    meaning: term.meaning,
    part_of_speech: term.partOfSpeech,
    notes: term.notes,
    created_at: term.createdAt,
    updated_at: term.updatedAt,
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    elapsed_days: card.elapsedDays,
    scheduled_days: card.scheduledDays,
    learning_steps: card.learningSteps,
    reps: card.reps,
    lapses: card.lapses,
    state: card.state,
    last_review: card.lastReview,
  };
}
