/**
 * Temporary folders for tests. Each test run (vitest, Playwright) gets its own parent folder, `polyglot-run-*` in the
 * system temp directory, named in POLYGLOT_TEST_TMPDIR; everything a test or helper creates goes inside it as
 * `polyglot-<label>-*` and is removed by whoever made it. At the end of the run the parent must be empty: what is
 * left was leaked by a test (and is reported), then the parent goes too. Other runs on the same machine use other
 * parents, so the check sees only this run's leftovers.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RUN_TMPDIR_VARIABLE, tempDir } from "../../scripts/support/temp.ts";

// Shared with the scripts (the throwaway PostgreSQL of scripts/support/postgres.ts makes its folder with it).
export { RUN_TMPDIR_VARIABLE, tempDir };

/** Creates this run's parent folder and names it in the environment, so helpers and worker processes use it. */
export function openRunTempDir(parent = tmpdir()): string {
  const root = mkdtempSync(path.join(parent, "polyglot-run-"));
  // Traversable by other users: as root, the test PostgreSQL server runs as the postgres user inside it.
  chmodSync(root, 0o711);
  process.env[RUN_TMPDIR_VARIABLE] = root;
  return root;
}

/** Removes the run's parent folder and returns what was left in it (names relative to it; empty when all is well). */
export function closeRunTempDir(root: string): string[] {
  const leftovers = readdirSync(root).sort();
  rmSync(root, { recursive: true, force: true });
  if (process.env[RUN_TMPDIR_VARIABLE] === root) delete process.env[RUN_TMPDIR_VARIABLE];
  return leftovers;
}

/** The error a run reports when it left something behind. */
export function leftoversError(runner: string, root: string, leftovers: string[]): Error {
  return new Error(
    `${runner} left ${leftovers.length} folder(s) behind in its temp directory ${root} (now removed): ${leftovers.join(", ")}. ` +
      `A test or helper created them and did not remove them: remove what you create, also when a test fails.`,
  );
}
