import { setImmediate as nextTurn } from "node:timers/promises";
import { fromSpreadsheetSafe } from "./csv-cells";
import { exportedKnownWord, type ExportedKnownWord } from "./export-document";
import type { ImportTable } from "./import-file.server";

/** Rows checked between turns of the event loop. */
const ROWS_PER_TURN = 2_000;

/**
 * A table with a `kind` column (the known words' CSV of the export, ADR 105): its rows of kind `known` are known words
 * (`language`, else the draft's; `word`, `text` or `term`; `marked_at`, else now), the other rows stay terms. A table
 * without that column is left as it is.
 */
export async function knownRowsOf(
  table: ImportTable,
  language: string,
  now = new Date(),
): Promise<{ table: ImportTable; knownWords: ExportedKnownWord[] }> {
  const names = table.headers.map((header) => header.trim().toLowerCase());
  const kind = names.indexOf("kind");
  if (kind < 0) return { table, knownWords: [] };
  const languageAt = names.indexOf("language");
  const wordAt = names.findIndex((name) => name === "word" || name === "text" || name === "term");
  const markedAt = names.indexOf("marked_at");
  const knownWords: ExportedKnownWord[] = [];
  const rows: ImportTable["rows"] = [];
  for (const [index, row] of table.rows.entries()) {
    if (index % ROWS_PER_TURN === ROWS_PER_TURN - 1) await nextTurn();
    if (row.cells[kind]?.toLowerCase() !== "known") {
      rows.push(row);
      continue;
    }
    const known = exportedKnownWord.safeParse({
      language: (languageAt >= 0 && row.cells[languageAt]) || language,
      word: fromSpreadsheetSafe(wordAt >= 0 ? (row.cells[wordAt] ?? "") : ""),
      markedAt: (markedAt >= 0 && row.cells[markedAt]) || now.toISOString(),
    });
    if (known.success) knownWords.push(known.data);
  }
  return { table: { ...table, rows }, knownWords };
}
