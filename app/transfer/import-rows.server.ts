import { NOTES_MAX_LENGTH } from "../learning/term-form";
import { isPartOfSpeech, type OptionalPartOfSpeech, type PartOfSpeech } from "../learning/vocabulary";
import { fromSpreadsheetSafe } from "./csv-cells";
import { mappingOfNames } from "./field-names";
import { htmlToText, type ImportTable } from "./import-file.server";
import { readingApart } from "./readings";
import type { RowProblem, RowReason, Target } from "./targets";

/**
 * The mapping guessed from the header (names as learners and shared decks write them, see field-names.ts); without
 * one, the first column is the term and the second its meaning.
 */
export function guessMapping(table: ImportTable): Target[] {
  const widest = Math.max(table.headers.length, ...table.rows.slice(0, 50).map((row) => row.cells.length), 1);
  // The preview offers a choice per column; beyond 50 columns the rest are ignored.
  const width = Math.min(widest, 50);
  // A column whose first cells are only media references (`[sound:…]`, `<img …>`) is never the term or the meaning.
  const sample = table.rows.slice(0, 20);
  const looksLikeMedia = (column: number) =>
    sample.some((row) => row.cells[column]) &&
    sample.every((row) => /^\s*((\[sound:[^\]]*\]|<img\b[^>]*>)\s*)*$/i.test(row.cells[column] ?? ""));
  return mappingOfNames(table.headers, width, looksLikeMedia);
}

const POS_ALIASES: Record<string, PartOfSpeech> = {
  n: "noun",
  v: "verb",
  adj: "adjective",
  adv: "adverb",
  prep: "adposition",
  preposition: "adposition",
  conj: "coordinating_conjunction",
  conjunction: "coordinating_conjunction",
  pron: "pronoun",
  num: "numeral",
  det: "determiner",
  interj: "interjection",
};

export type ImportedExample = { sentence: string; translation: string };
export type ImportRow = {
  line: number;
  text: string;
  reading: string;
  meaning: string;
  partOfSpeech: OptionalPartOfSpeech;
  notes: string;
  examples: ImportedExample[];
};

/**
 * Our CSV export's examples column: one example a line, the translation after " | ". A plain sentence is one example.
 */
function examplesOf(cell: string): ImportedExample[] {
  return cell
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf(" | ");
      return at === -1
        ? { sentence: line, translation: "" }
        : { sentence: line.slice(0, at).trim(), translation: line.slice(at + 3).trim() };
    });
}

/**
 * The longest cell read at all, markup included: ten times the longest field (notes, 2,000 characters) leaves room for
 * Anki's HTML around real content.
 */
export const RAW_CELL_LIMIT = 20_000;

/** Which problem a cell longer than RAW_CELL_LIMIT is, by the column it is mapped to. */
const TOO_LONG: [Target, RowReason][] = [
  ["text", "textTooLong"],
  ["reading", "readingTooLong"],
  ["meaning", "meaningTooLong"],
  ["notes", "notesTooLong"],
  ["example", "sentenceTooLong"],
  ["partOfSpeech", "partOfSpeech"],
];

/** The rows of a table under a mapping: valid terms and the problems of the others, each with its line number. */
export function mapRows(table: ImportTable, mapping: Target[], defaultPartOfSpeech: OptionalPartOfSpeech) {
  const rows: ImportRow[] = [];
  const problems: RowProblem[] = [];
  const clean = (value: string | undefined) => {
    const raw = fromSpreadsheetSafe(value ?? "");
    const text = table.html ? htmlToText(raw) : raw;
    return text.trim();
  };
  for (const { line, cells } of table.rows) {
    // Lengths are checked before any cleaning: no cell far longer than anything it can hold is ever worked on.
    const overlong = TOO_LONG.find(([target]) => (cells[mapping.indexOf(target)]?.length ?? 0) > RAW_CELL_LIMIT);
    if (overlong) {
      const value = `${cells[mapping.indexOf(overlong[0])]!.slice(0, 20)}…`;
      problems.push({ line, reason: overlong[1], ...(overlong[1] === "partOfSpeech" ? { value } : {}) });
      continue;
    }
    const field = (target: Target) => clean(cells[mapping.indexOf(target)]);
    const text = field("text").replace(/\s+/g, " ");
    // Without a reading column, a deck's meaning may hold the reading in an element of its own.
    const split =
      table.html && !mapping.includes("reading") ? readingApart(text, cells[mapping.indexOf("meaning")] ?? "") : null;
    const reading = (split ? clean(split.reading) : field("reading")).replace(/\s+/g, " ");
    const meaning = split ? clean(split.meaning) : field("meaning");
    const notes = field("notes");
    const posCell = mapping.includes("partOfSpeech") ? field("partOfSpeech").toLowerCase().replace(/[ -]/g, "_") : "";
    const partOfSpeech: OptionalPartOfSpeech | undefined = !posCell
      ? defaultPartOfSpeech
      : isPartOfSpeech(posCell)
        ? posCell
        : POS_ALIASES[posCell];
    const examples = mapping.includes("example") ? examplesOf(field("example")) : [];
    let problem: RowReason | null = null;
    if (!text) problem = "textRequired";
    else if (text.length > 200) problem = "textTooLong";
    else if (reading.length > 200) problem = "readingTooLong";
    else if (meaning.length > 500) problem = "meaningTooLong";
    else if (notes.length > NOTES_MAX_LENGTH) problem = "notesTooLong";
    else if (partOfSpeech === undefined) problem = "partOfSpeech";
    else if (examples.some((e) => e.sentence.length > 500 || e.translation.length > 500)) problem = "sentenceTooLong";
    if (problem) problems.push({ line, reason: problem, ...(problem === "partOfSpeech" ? { value: posCell } : {}) });
    else rows.push({ line, text, reading, meaning, partOfSpeech: partOfSpeech!, notes, examples });
  }
  return { rows, problems };
}
