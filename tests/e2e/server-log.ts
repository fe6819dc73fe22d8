import { readFileSync } from "node:fs";
import path from "node:path";
import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/** Where global-setup writes the e2e server's output (Playwright's output folder, emptied at the start of a run). */
export const SERVER_LOG = path.resolve(import.meta.dirname, "../../test-results/server.log");
const MARGIN_MS = 1_000;

/**
 * Keeps the server quiet while tests pass: for each test that failed, prints the server's log lines written while it
 * ran (other tests run in parallel, so lines of theirs can appear too). Lines that are not JSON are shown with the
 * failures as well, since they carry no time (a crash, a stack trace).
 */
export default class ServerLogReporter implements Reporter {
  private failed: { title: string; from: number; to: number; error: string }[] = [];

  onTestEnd(test: TestCase, result: TestResult) {
    if (test.outcome() !== "unexpected") return;
    const from = result.startTime.getTime() - MARGIN_MS;
    this.failed.push({
      title: test.titlePath().filter(Boolean).join(" › "),
      from,
      to: from + result.duration + 2 * MARGIN_MS,
      error: firstLine(result.error?.message ?? ""),
    });
  }

  onEnd(_result: FullResult) {
    if (!this.failed.length) return;
    let lines: string[];
    try {
      lines = readFileSync(SERVER_LOG, "utf8").split("\n").filter(Boolean);
    } catch {
      lines = [];
    }
    const timed = lines.map((text) => ({ text, time: timeOf(text) }));
    for (const failure of this.failed) {
      const during = timed
        .filter(({ time }) => time === null || (time >= failure.from && time <= failure.to))
        .map(({ text }) => `  ${text}`);
      console.log(
        `\nServer log while "${failure.title}" ran (${during.length} lines; all of it in ${SERVER_LOG}):\n${during.join("\n")}`,
      );
    }
    // The failures once more, last, so that a log cut to its tail still names them.
    console.log(`\n${this.failed.length} failed (server logs above):`);
    for (const failure of this.failed) console.log(`  ✘ ${failure.title}\n      ${failure.error}`);
  }

  printsToStdio() {
    return false;
  }
}

function firstLine(message: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = message.replace(/\u001b\[[0-9;]*m/g, "");
  return plain.split("\n").find((line) => line.trim()) ?? "";
}

function timeOf(line: string): number | null {
  try {
    const time = (JSON.parse(line) as { time?: unknown }).time;
    return typeof time === "string" ? Date.parse(time) : null;
  } catch {
    return null;
  }
}
