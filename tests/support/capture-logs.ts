/**
 * Vitest setup file: the log lines collected while a test ran (tests/support/test-logs.ts) are printed after it only
 * when it failed; lines written by beforeAll hooks count toward the file's first test. A file whose tests did not all
 * pass, or whose beforeAll failed, also prints what was logged after its last test.
 */
import { afterAll, afterEach, beforeEach } from "vitest";
import { takeLogLines } from "./test-logs.ts";

let failedInFile = false;
let testsRan = false;

function show(heading: string, lines: string[]) {
  if (lines.length)
    console.error(`${heading} (${lines.length} lines):\n${lines.map((line) => `  ${line}`).join("\n")}`);
}

beforeEach(() => {
  testsRan = true;
});

afterEach(({ task }) => {
  const lines = takeLogLines();
  if (task.result?.state !== "fail") return;
  failedInFile = true;
  show(`Log of the failed test "${task.name}"`, lines);
});

afterAll(() => {
  const lines = takeLogLines();
  // No test ran: a beforeAll failed (a server that would not start), and its log explains why.
  if (failedInFile || !testsRan) show("Log of this file's hooks (no test or a failed one)", lines);
});
