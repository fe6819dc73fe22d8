/**
 * Vitest globalSetup, listed first so its teardown runs last: the run's own temp folder (see ./temp.ts). The run fails
 * when a test left anything in it; a process that ends early removes it too.
 */
import { rmSync } from "node:fs";
import { closeRunTempDir, leftoversError, openRunTempDir } from "./temp.ts";

export default function setup() {
  const root = openRunTempDir();
  const removeOnExit = () => rmSync(root, { recursive: true, force: true });
  process.once("exit", removeOnExit);
  return () => {
    process.off("exit", removeOnExit);
    const leftovers = closeRunTempDir(root);
    if (leftovers.length) throw leftoversError("vitest", root, leftovers);
  };
}
