/**
 * Cells a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, carriage return first) are written with a
 * leading apostrophe, as OWASP recommends against CSV injection; the importer drops exactly that apostrophe again, so
 * our own exports come back unchanged. A cell that already starts with apostrophes before such a character gets one
 * more, so it too comes back as it was.
 */
const NEEDS_PREFIX = /^'*[=+\-@\t\r]/;
const PREFIXED = /^'+[=+\-@\t\r]/;

export function spreadsheetSafe(value: string): string {
  return NEEDS_PREFIX.test(value) ? `'${value}` : value;
}

export function fromSpreadsheetSafe(value: string): string {
  return PREFIXED.test(value) ? value.slice(1) : value;
}
