import { existsSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RUN_TMPDIR_VARIABLE, closeRunTempDir, leftoversError, openRunTempDir, tempDir } from "../support/temp.ts";

describe("a test run's temp folder", () => {
  const outer = process.env[RUN_TMPDIR_VARIABLE];
  const made: string[] = [];
  afterEach(() => {
    if (outer === undefined) delete process.env[RUN_TMPDIR_VARIABLE];
    else process.env[RUN_TMPDIR_VARIABLE] = outer;
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("is where helpers create their polyglot-* folders while the run lasts", () => {
    const parent = tempDir("runs");
    made.push(parent);
    const root = openRunTempDir(parent);
    expect(path.basename(root)).toMatch(/^polyglot-run-/);
    expect(statSync(root).mode & 0o777).toBe(0o711);
    const dir = tempDir("example");
    expect(path.dirname(dir)).toBe(root);
    expect(path.basename(dir)).toMatch(/^polyglot-example-/);
    rmSync(dir, { recursive: true });
    expect(closeRunTempDir(root)).toEqual([]);
    expect(existsSync(root)).toBe(false);
  });

  it("names what a test left behind, and is removed all the same", () => {
    const parent = tempDir("runs");
    made.push(parent);
    const root = openRunTempDir(parent);
    const leaked = path.basename(tempDir("leak"));
    const leftovers = closeRunTempDir(root);
    expect(leftovers).toEqual([leaked]);
    expect(existsSync(root)).toBe(false);
    expect(leftoversError("vitest", root, leftovers).message).toContain(
      `left 1 folder(s) behind in its temp directory ${root} (now removed): ${leaked}`,
    );
  });
});
