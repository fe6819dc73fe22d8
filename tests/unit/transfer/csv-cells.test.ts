import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { fromSpreadsheetSafe, spreadsheetSafe } from "#app/transfer/csv-cells.ts";
import { readTable } from "#app/transfer/import-file.server.ts";
import { mapRows } from "#app/transfer/import-rows.server.ts";

describe("CSV cells safe for spreadsheets", () => {
  const risky = ["=1+1", "+49 30", "-ish", "@sum(A1)", "\tindent", "\rreturn", '=HYPERLINK("http://x")'];

  it("prefixes every cell a spreadsheet would run as a formula, and nothing else", () => {
    for (const cell of risky) expect(spreadsheetSafe(cell)).toBe(`'${cell}`);
    for (const cell of ["Haus", "'s Hertogenbosch", "1-2", "a=b", ""]) expect(spreadsheetSafe(cell)).toBe(cell);
  });

  it("reads our own export back unchanged, apostrophes that were there before included", async () => {
    for (const cell of [...risky.filter((c) => !/^[\t\r]/.test(c)), "'s Hertogenbosch", "'=already quoted"])
      expect(fromSpreadsheetSafe(spreadsheetSafe(cell))).toBe(cell);
    const csv = stringify([
      ["text", "meaning"],
      ...risky.slice(0, 5).map((cell) => [spreadsheetSafe(cell.trim()), spreadsheetSafe("+1")]),
    ]);
    const table = await readTable(csv);
    const { rows } = mapRows(table, ["text", "meaning"], "noun");
    expect(rows.map((row) => [row.text, row.meaning])).toEqual(risky.slice(0, 5).map((cell) => [cell.trim(), "+1"]));
  });
});
