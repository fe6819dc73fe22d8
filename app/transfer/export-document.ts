import { z } from "zod";
import { isOptionalPartOfSpeech, isStudyLanguage } from "../learning/vocabulary";

/** Marks a JSON file as this app's export; the importer recognises it by these two fields. */
export const EXPORT_FORMAT = "polyglot-export";
export const EXPORT_VERSION = 1;

const date = z.iso.datetime({ offset: true }).transform((value) => new Date(value));
const text = (max: number) => z.string().max(max);

/** One term of a JSON export, as the importer reads it back: everything a term holds, with its review history. */
export const exportedTerm = z.object({
  language: z.string().refine(isStudyLanguage),
  text: text(200).refine((value) => value.trim().length > 0),
  meaning: text(500),
  partOfSpeech: z.string().refine(isOptionalPartOfSpeech),
  notes: text(2000),
  createdAt: date,
  updatedAt: date,
  card: z.object({
    due: date,
    stability: z.number().finite().min(0),
    difficulty: z.number().finite().min(0),
    elapsedDays: z.number().int().min(0),
    scheduledDays: z.number().int().min(0),
    learningSteps: z.number().int().min(0),
    reps: z.number().int().min(0),
    lapses: z.number().int().min(0),
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
        scheduledDays: z.number().int().min(0),
      }),
    )
    .max(10_000),
});
export type ExportedTerm = z.output<typeof exportedTerm>;

/** The envelope of a JSON export; its terms are checked one by one so a bad entry is named, not the whole file. */
export const exportEnvelope = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  terms: z.array(z.unknown()),
});

/** A quick look: does this content claim to be a JSON export? */
export const looksLikeJsonExport = (content: string) => /^\s*\{/.test(content) && content.includes(EXPORT_FORMAT);
