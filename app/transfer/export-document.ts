import { z } from "zod";
import { isOptionalPartOfSpeech, isStudyLanguage } from "../learning/vocabulary";

/** Marks a JSON file as this app's export; the importer recognises it by these two fields. */
export const EXPORT_FORMAT = "polyglot-export";
export const EXPORT_VERSION = 1;

/**
 * Dates within the years a learner's data can hold (Anki dates from 2006; nothing past 2200): a year-0 or year-275760
 * date is refused with the term's position rather than stored and broken later.
 */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);
const date = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .refine((value) => value.getTime() >= EARLIEST && value.getTime() < LATEST);
/** The scheduler's own ceiling (ts-fsrs' maximum interval and stability): a hundred years. */
const MAX_DAYS = 36_500;
/** Counts far beyond any learner's (a review a minute for a century), and inside a PostgreSQL integer. */
const count = z.number().int().min(0).max(100_000_000);
const days = z.number().int().min(0).max(MAX_DAYS);
const text = (max: number) => z.string().max(max);

/** One term of a JSON export, as the importer reads it back: everything a term holds, with its review history. */
export const exportedTerm = z.object({
  language: z.string().refine(isStudyLanguage),
  text: text(200).refine((value) => value.trim().length > 0),
  /** Absent from exports written before terms had readings. */
  reading: text(200).default(""),
  meaning: text(500),
  partOfSpeech: z.string().refine(isOptionalPartOfSpeech),
  notes: text(2000),
  createdAt: date,
  updatedAt: date,
  card: z.object({
    due: date,
    stability: z.number().finite().min(0).max(MAX_DAYS),
    difficulty: z.number().finite().min(0).max(10),
    elapsedDays: days,
    scheduledDays: days,
    learningSteps: z.number().int().min(0).max(100),
    reps: count,
    lapses: count,
    state: z.number().int().min(0).max(3),
    lastReview: date.nullable(),
  }),
  examples: z.array(z.object({ sentence: text(500).min(1), translation: text(500), createdAt: date })).max(100),
  reviews: z
    .array(
      z.object({
        rating: z.number().int().min(0).max(4),
        state: z.number().int().min(0).max(3),
        reviewedAt: date,
        scheduledDays: days,
      }),
    )
    .max(10_000),
});
export type ExportedTerm = z.output<typeof exportedTerm>;

/** One known word of a JSON export (ADR 105): a word the learner knows, no term, no card. */
export const exportedKnownWord = z.object({
  language: z.string().refine(isStudyLanguage),
  word: text(200).refine((value) => value.trim().length > 0),
  markedAt: date,
});
export type ExportedKnownWord = z.output<typeof exportedKnownWord>;

/** At most this many known words in one file (the reader's words of a hundred novels). */
export const MAX_KNOWN_WORDS = 200_000;

/**
 * The envelope of a JSON export; its terms and known words are checked one by one so a bad entry is named, not the
 * whole file. Files written before known words were exported have none.
 */
export const exportEnvelope = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  terms: z.array(z.unknown()),
  knownWords: z.array(z.unknown()).max(MAX_KNOWN_WORDS).optional(),
});

/** A quick look: does this content claim to be a JSON export? */
export const looksLikeJsonExport = (content: string) => /^\s*\{/.test(content) && content.includes(EXPORT_FORMAT);
