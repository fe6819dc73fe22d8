/**
 * Log lines of the code under test, held per test and shown only when that test fails (tests/support/capture-logs.ts
 * prints them). The app build loaded in a test process writes here (startApp installs the sink), and so do server
 * processes started by tests. A test that expects an error log stays quiet when it passes.
 */
const pending: string[] = [];

export function captureLogLine(line: string) {
  pending.push(line);
}

/** The lines since the last call. */
export function takeLogLines(): string[] {
  return pending.splice(0);
}
