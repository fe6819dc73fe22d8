/**
 * Temporary folders for scripts and tests: inside a test run, in the run's own parent folder (named in
 * POLYGLOT_TEST_TMPDIR, see tests/support/temp.ts); otherwise in the system temp directory.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const RUN_TMPDIR_VARIABLE = "POLYGLOT_TEST_TMPDIR";

/** A new empty folder `polyglot-<label>-*` in this run's parent (the system temp directory outside a run). */
export function tempDir(label: string): string {
  return mkdtempSync(path.join(process.env[RUN_TMPDIR_VARIABLE] ?? tmpdir(), `polyglot-${label}-`));
}
