/** What a column of an imported file becomes (shared by the preview page and the importer). */
export const TARGETS = ["ignore", "text", "reading", "meaning", "partOfSpeech", "notes", "example"] as const;
export type Target = (typeof TARGETS)[number];
export const isTarget = (value: unknown): value is Target =>
  typeof value === "string" && (TARGETS as readonly string[]).includes(value);

/** Why a row is skipped: a translation key under `import.reasons`. */
export type RowReason =
  | "invalidEntry"
  | "textRequired"
  | "textTooLong"
  | "readingTooLong"
  | "meaningTooLong"
  | "notesTooLong"
  | "sentenceTooLong"
  | "partOfSpeech";
/** A skipped row: its line in the file (its position in a JSON export), the reason and the offending value. */
export type RowProblem = { line: number; reason: RowReason; value?: string };
