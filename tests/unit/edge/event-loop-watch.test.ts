import { afterAll, describe, expect, it } from "vitest";
import { watchEventLoop } from "#app/edge/event-loop-watch.server.ts";
import { setLogSink } from "#app/server/log.server.ts";

/** Keeps this thread busy for `ms` of its own CPU time, however long the machine makes that take. */
function holdFor(ms: number) {
  const cpu = () => {
    const { user, system } = process.threadCpuUsage();
    return (user + system) / 1000;
  };
  const end = cpu() + ms;
  while (cpu() < end);
}

describe("the event loop watch", () => {
  // Unit test files share a worker (ADR 144): the watch stops with the test, as the sink is restored.
  let stop = () => {};
  afterAll(() => {
    stop();
    setLogSink(null);
  });

  it("reports a held turn after it started, not the rest of the turn that started it", async () => {
    const held: number[] = [];
    const reported = new Promise<void>((resolve) =>
      setLogSink((line) => {
        const entry = JSON.parse(line) as { message?: string; heldMs?: number };
        if (entry.message !== "event loop blocked") return;
        held.push(Number(entry.heldMs));
        if (Number(entry.heldMs) > 100) resolve();
      }),
    );
    stop = watchEventLoop();
    // The rest of the turn that starts the watch: in server.ts, loading the app and calling listen(), before the
    // server can accept a connection.
    holdFor(300);
    // A turn once the watch ticks: what a request could be waiting behind.
    setTimeout(() => holdFor(150), 30);
    await reported;
    expect(Math.max(...held)).toBeGreaterThanOrEqual(145);
    expect(Math.max(...held)).toBeLessThan(290);
  });
});
