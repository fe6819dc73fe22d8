import { parse } from "csv-parse/sync";

/** A table read from an uploaded or pasted file: its header names (may be empty) and rows with their line numbers. */
export type ImportTable = {
  kind: "csv" | "tsv" | "anki";
  headers: string[];
  rows: { line: number; cells: string[] }[];
  /** Anki's `#html:true`: fields carry HTML that is reduced to text. */
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
 * Reads CSV, TSV or Anki's plain-text export with csv-parse. A first row whose cells look like column names is taken
 * as the header. Throws a csv-parse error (with its line) when the file cannot be read as a table.
 */
export function readTable(content: string): ImportTable {
  const text = content.replace(/^\uFEFF/, "");
  const lines = text.split(/\r?\n/, 20);
  const anki = ankiHeader(lines);
  const delimiter = anki.separator ?? guessDelimiter(lines[anki.count] ?? "");
  const records = parse(text, {
    delimiter,
    from_line: anki.count + 1,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    info: true,
    raw: true,
    bom: true,
  }) as unknown as { record: string[]; raw: string; info: { lines: number } }[];
  // csv-parse counts the line a record ends on; a quoted field may span lines, so the row starts that many earlier.
  const startLine = (raw: string, end: number) =>
    end -
    (raw
      .replace(/^[\r\n]+/, "")
      .replace(/\r?\n$/, "")
      .match(/\n/g)?.length ?? 0);
  let rows = records.map(({ record, raw, info }) => ({
    line: startLine(raw, info.lines),
    cells: record.map((cell) => cell.trim()),
  }));
  let headers = anki.columns ?? [];
  const first = rows[0];
  if (!anki.columns && first && first.cells.filter((cell) => HEADER_WORDS.test(cell)).length >= 2) {
    headers = first.cells;
    rows = rows.slice(1);
  }
  return { kind: anki.count > 0 ? "anki" : delimiter === "\t" ? "tsv" : "csv", headers, rows, html: anki.html };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** A field of Anki's HTML export as plain text: line breaks kept, tags dropped, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>|<\/(div|p|li)>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/\[sound:[^\]]*\]/g, "")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, entity: string) => {
      if (entity[0] !== "#") return ENTITIES[entity.toLowerCase()] ?? whole;
      const code = entity[1]?.toLowerCase() === "x" ? parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    })
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join("\n");
}
