/**
 * Vitest setup file: the log lines collected while a test ran (tests/support/test-logs.ts) are printed after it only
 * when it failed; lines written by beforeAll hooks count toward the file's first test. A file whose tests did not all
 * pass also prints what was logged after its last test.
 */
import { afterAll, afterEach } from "vitest";
import { takeLogLines } from "./test-logs.ts";

let failedInFile = false;

function show(heading: string, lines: string[]) {
  if (lines.length) console.error(`${heading} (${lines.length} lines):\n${lines.map((line) => `  ${line}`).join("\n")}`);
}

afterEach(({ task }) => {
  const lines = takeLogLines();
  if (task.result?.state !== "fail") return;
  failedInFile = true;
  show(`Log of the failed test "${task.name}"`, lines);
});

afterAll(() => {
  const lines = takeLogLines();
  if (failedInFile) show("Log after the file's last test", lines);
});
