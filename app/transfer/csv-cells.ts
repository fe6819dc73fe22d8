/**
 * Cells a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, carriage return first) are written with a
 * leading apostrophe, as OWASP recommends against CSV injection; the importer drops exactly that apostrophe again, so
 * our own exports come back unchanged.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function spreadsheetSafe(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export function fromSpreadsheetSafe(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}
