/**
 * Limits that translations name, as interpolation variables every `t()` knows (i18next's `defaultVariables`). A
 * string writes `{{maxNewPerDay, number}}`, so each locale shows the number in its own format (“1,000”, “1.000”,
 * “1 000”) and no translation hand-writes one. `tests/unit/glossary.test.ts` checks them against the limits the code
 * enforces.
 */
export const NUMBER_VARIABLES = {
  maxNewPerDay: 1000,
  defaultNewPerDay: 20,
  maxReviewsPerDay: 10000,
  defaultReviewsPerDay: 200,
  maxImportRows: 20_000,
  maxNotes: 2000,
  maxTextBytes: 50_000,
  maxTexts: 1_000,
  maxTerms: 50_000,
  maxPackageEntries: 50_000,
  maxAnkiFields: 50,
  /** A sound's limit and a learner's sounds' limit, in MB (ADR 126). */
  maxSoundMb: 2,
  soundsPerLearnerMb: 200,
} as const;
