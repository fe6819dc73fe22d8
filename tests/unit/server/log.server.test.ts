import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "#app/server/log.server.ts";

/** What the process writes to stdout and stderr while a test runs, call by call. */
function captureStreams() {
  const calls: { stream: "stdout" | "stderr"; text: string }[] = [];
  const spy = (stream: "stdout" | "stderr") =>
    vi.spyOn(process[stream], "write").mockImplementation((chunk: string | Uint8Array) => {
      calls.push({ stream, text: String(chunk) });
      return true;
    });
  spy("stdout");
  spy("stderr");
  return calls;
}

describe("log lines", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it("are written to stdout together, once a little time has passed, one JSON object per line", () => {
    vi.useFakeTimers();
    const calls = captureStreams();
    log.info("request", { id: "a", status: 200 });
    log.info("request", { id: "b", status: 404, learner: undefined });
    log.warn("slow", {});
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(25);
    expect(calls).toHaveLength(1);
    const lines = calls[0]!.text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { level: "info", message: "request", id: "a", status: 200 },
      { level: "info", message: "request", id: "b", status: 404 },
      { level: "warn", message: "slow" },
    ]);
    expect(lines[1]).not.toHaveProperty("learner");
    expect(Date.parse(lines[0]!.time as string)).not.toBeNaN();
  });

  it("write an error at once, after the lines that waited, with its message trimmed", () => {
    vi.useFakeTimers();
    const calls = captureStreams();
    log.info("before");
    log.error("query failed", { error: new Error(`select 1\nparams: secret@example.test`) });
    expect(calls.map((call) => call.stream)).toEqual(["stdout", "stderr"]);
    expect(JSON.parse(calls[0]!.text)).toMatchObject({ message: "before" });
    const error = JSON.parse(calls[1]!.text) as { error: { message: string } };
    expect(error.error.message).toBe("select 1");
    expect(calls[1]!.text).not.toContain("secret@example.test");
  });

  it("go out at once when many wait", () => {
    vi.useFakeTimers();
    const calls = captureStreams();
    for (let i = 0; i < 200; i++) log.info("request", { path: `/${"x".repeat(100)}`, i });
    expect(calls.length).toBeGreaterThan(0);
    vi.advanceTimersByTime(25);
    const lines = calls.flatMap((call) => call.text.trimEnd().split("\n"));
    expect(lines).toHaveLength(200);
    expect(lines.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual([...Array(200).keys()]);
  });
});
