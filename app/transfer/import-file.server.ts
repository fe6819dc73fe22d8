import { parse, type Options, type Parser } from "csv-parse";
import { setImmediate as nextTurn } from "node:timers/promises";
import { isKnownName } from "./field-names";

/** A table read from an uploaded or pasted file: its header names (may be empty) and rows with their line numbers. */
export type ImportTable = {
  kind: "csv" | "tsv" | "anki" | "apkg";
  headers: string[];
  rows: { line: number; cells: string[] }[];
  /** Anki's `#html:true` (and every Anki package): fields carry HTML that is reduced to text. */
  html: boolean;
};

const ANKI_SEPARATORS: Record<string, string> = {
  tab: "\t",
  comma: ",",
  semicolon: ";",
  pipe: "|",
  colon: ":",
  space: " ",
};

/** Anki's "Notes in Plain Text" header lines (`#separator:tab`, `#html:true`, `#columns:…`, `#tags column:3`). */
function ankiHeader(lines: string[]) {
  const header: { separator?: string; html: boolean; columns?: string[]; count: number } = { html: false, count: 0 };
  for (const line of lines) {
    const match = /^#([a-z ]+):(.*)$/i.exec(line);
    if (!match) break;
    header.count++;
    const [, key = "", value = ""] = match;
    if (key === "separator") header.separator = ANKI_SEPARATORS[value.trim().toLowerCase()] ?? value.trim();
    else if (key === "html") header.html = value.trim() === "true";
    else if (key === "columns") header.columns = value.split(header.separator ?? "\t");
  }
  return header;
}

/** Tab when the first line has more tabs than commas or semicolons; else the most frequent of those two. */
function guessDelimiter(firstLine: string): string {
  const count = (c: string) => firstLine.split(c).length - 1;
  if (count("\t") > 0 && count("\t") >= count(",")) return "\t";
  return count(";") > count(",") ? ";" : ",";
}

const HEADER_WORDS =
  /^(term|word|text|front|back|expression|meaning|hint|translation|definition|notes?|example|sentence|fragment|phrase|tags?|status|part[ _]of[ _]speech|pos|language|stage|examples)$/i;

/**
 * How much of a file is parsed before the event loop gets a turn: a few milliseconds of work, so a 5 MiB upload never
 * holds other requests for long.
 */
const PARSE_SLICE = 16 * 1024;
/** Records turned into rows between two turns of the event loop (a few milliseconds). */
const RECORDS_PER_TURN = 2_000;

type ParsedRecord = { record: string[]; raw: string; info: { lines: number } };

/** csv-parse's streaming parser fed slice by slice, with a turn of the event loop between slices. */
async function parseInSlices(text: string, options: Options): Promise<ParsedRecord[]> {
  const parser: Parser = parse(options);
  const records: ParsedRecord[] = [];
  let failure: unknown = null;
  parser.on("readable", () => {
    let record: ParsedRecord | null;
    while ((record = parser.read() as ParsedRecord | null) !== null) records.push(record);
  });
  parser.on("error", (error) => (failure ??= error));
  const ended = new Promise<void>((resolve) => parser.once("end", resolve).once("error", () => resolve()));
  for (let at = 0; at < text.length; at += PARSE_SLICE) {
    parser.write(text.slice(at, at + PARSE_SLICE));
    await nextTurn();
    if (failure) break;
  }
  if (!failure) parser.end();
  await ended;
  if (failure) throw failure;
  return records;
}

/**
 * Reads CSV, TSV or Anki's plain-text export with csv-parse. A first row whose cells look like column names is taken
 * as the header. Rejects with a csv-parse error (with its line) when the file cannot be read as a table.
 */
export async function readTable(content: string): Promise<ImportTable> {
  const text = content.replace(/^\uFEFF/, "");
  const lines = text.split(/\r?\n/, 20);
  const anki = ankiHeader(lines);
  const delimiter = anki.separator ?? guessDelimiter(lines[anki.count] ?? "");
  const records = await parseInSlices(text, {
    delimiter,
    from_line: anki.count + 1,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    info: true,
    raw: true,
    bom: true,
  });
  // csv-parse counts the line a record ends on; a quoted field may span lines, so the row starts that many earlier.
  const startLine = (raw: string, end: number) =>
    end -
    (raw
      .replace(/^[\r\n]+/, "")
      .replace(/\r?\n$/, "")
      .match(/\n/g)?.length ?? 0);
  let rows: ImportTable["rows"] = [];
  for (let at = 0; at < records.length; at += RECORDS_PER_TURN) {
    if (at > 0) await nextTurn();
    for (const { record, raw, info } of records.slice(at, at + RECORDS_PER_TURN))
      rows.push({ line: startLine(raw, info.lines), cells: record.map((cell) => cell.trim()) });
  }
  let headers = anki.columns ?? [];
  const first = rows[0];
  if (
    !anki.columns &&
    first &&
    first.cells.filter((cell) => HEADER_WORDS.test(cell) || isKnownName(cell)).length >= 2
  ) {
    headers = first.cells;
    rows = rows.slice(1);
  }
  return { kind: anki.count > 0 ? "anki" : delimiter === "\t" ? "tsv" : "csv", headers, rows, html: anki.html };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** A tag that ends a line of text in Anki's HTML (`<br>`, `</div>`, `</p>`, `</li>`). */
const LINE_BREAK_TAG = /^(?:br\s*\/?|\/(?:div|p|li))$/i;

/**
 * Markup removed in linear time: each `<` (or `[sound:`) looks for its end once, and once none follows, the rest is
 * text. (A regular expression such as `/<[^>]*>/g` scans to the end from every unclosed `<`: quadratic.)
 */
function withoutMarkup(html: string): string {
  return withoutSounds(withoutTags(html));
}

function withoutSounds(html: string): string {
  let text = "";
  let at = 0;
  for (;;) {
    const start = html.indexOf("[sound:", at);
    const close = start === -1 ? -1 : html.indexOf("]", start);
    if (close === -1) return text + html.slice(at);
    text += html.slice(at, start);
    at = close + 1;
  }
}

function withoutTags(html: string): string {
  let text = "";
  let at = 0;
  for (;;) {
    const start = html.indexOf("<", at);
    const close = start === -1 ? -1 : html.indexOf(">", start);
    if (close === -1) return text + html.slice(at);
    text += html.slice(at, start) + (LINE_BREAK_TAG.test(html.slice(start + 1, close)) ? "\n" : "");
    at = close + 1;
  }
}

/** A field of Anki's HTML export as plain text: line breaks kept, tags and sounds dropped, entities decoded. Linear. */
export function htmlToText(html: string): string {
  return withoutMarkup(html)
    .replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{1,8});/gi, (whole, entity: string) => {
      if (entity[0] !== "#") return ENTITIES[entity.toLowerCase()] ?? whole;
      const code = entity[1]?.toLowerCase() === "x" ? parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    })
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join("\n");
}
