import { describe, expect, it } from "vitest";
import { runInWorker, TaskDeadline, TaskStopped } from "#app/server/worker-task.server.ts";

function sumOf(_path: typeof import("node:path"), input: { numbers: number[] }) {
  return twice(input.numbers.reduce((sum, n) => sum + n, 0)) / 2;
}
function twice(n: number) {
  return n * 2;
}
function spin(_path: unknown, input: { ms: number }) {
  const end = Date.now() + input.ms;
  while (Date.now() < end);
  return "done";
}
function hoard(_path: unknown, input: { mb: number }) {
  const kept: string[][] = [];
  for (let i = 0; i < input.mb; i++) kept.push(Array.from({ length: 32_768 }, (_, j) => `${i}:${j}`));
  return kept.length;
}
async function refuse() {
  throw new Error("refused in the thread");
}

describe("work on a thread of its own", () => {
  const limits = { module: "node:path", heapMb: 32, deadlineMs: 10_000 };

  it("answers with the entry's result, its helpers and module at hand", async () => {
    expect(await runInWorker({ ...limits, entry: sumOf, helpers: [twice], input: { numbers: [1, 2, 3] } })).toBe(6);
  });

  it("rejects with the thread's own error", async () => {
    await expect(runInWorker({ ...limits, entry: refuse, input: {} })).rejects.toThrow("refused in the thread");
  });

  it("ends a task past its deadline", async () => {
    const started = performance.now();
    await expect(
      runInWorker({ ...limits, deadlineMs: 200, entry: spin, input: { ms: 60_000 } }),
    ).rejects.toBeInstanceOf(TaskDeadline);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("stops a task that outgrows its heap", async () => {
    await expect(runInWorker({ ...limits, entry: hoard, input: { mb: 10_000 } })).rejects.toBeInstanceOf(TaskStopped);
  }, 30_000);
});
