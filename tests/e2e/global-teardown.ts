import { RUN_TMPDIR_VARIABLE, closeRunTempDir, leftoversError } from "../support/temp";

/**
 * Runs after global-setup's own teardown: the run's temp folder must be empty by then (the server's data directory and
 * the mail folder removed). Whatever is left is reported as an error, which fails the run, and removed.
 */
export default function globalTeardown() {
  const root = process.env[RUN_TMPDIR_VARIABLE];
  if (!root) return;
  const leftovers = closeRunTempDir(root);
  if (leftovers.length) throw leftoversError("playwright", root, leftovers);
}
