/**
 * How long an instance on the embedded database takes to become ready: `npm start` on an empty DATA_DIR (a copy of the
 * template database `npm run build` writes, as the image's DATA_TEMPLATE_DIR), then restarted on the same directory. The times are reported, not asserted (they depend on
 * what else the machine runs), with the process's CPU time; what is asserted is what the start controls: no turn of the
 * event loop after `listening` held the main thread's CPU for more than 100 ms (the server's own "event loop blocked"
 * warning, `heldMs`; its `ms` also counts the time the machine did not run the process). The turn that loads the app
 * and calls `listen` is not among them: the server accepts no connection before it ends (the watch starts timing at
 * its first tick).
 *
 * Needs `npm run build` (the test script builds first).
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type LogLine } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

/** The server's own threshold (app/edge/event-loop-watch.server.ts). */
const HELD_MS_MAX = 100;

/** CPU time (user and system, all threads) a process has used so far, from Linux's /proc; null elsewhere. */
function cpuMsOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

const at = (line: LogLine | undefined) => (line?.json?.time ? Date.parse(String(line.json.time)) : Number.NaN);

describe("readiness of an embedded database", () => {
  let root: string;
  const reports: string[] = [];

  beforeAll(() => {
    root = tempDir("readiness");
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    console.info(
      `readiness (load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}):\n${reports.join("\n")}`,
    );
  });

  async function startAndMeasure(label: string, env: Record<string, string | undefined>) {
    const spawned = Date.now();
    const server = await startServer({ env, healthTimeoutMs: 120_000 });
    const readyMs = Date.now() - spawned;
    const cpuMs = cpuMsOf(server.pid);
    const lines = server.logs();
    const listening = lines.find((line) => line.json?.message === "listening");
    const database = lines.find((line) => line.json?.message === "database ready");
    expect(await server.stop()).toBe(0);
    const blocked = server
      .logs()
      .filter((line) => line.json?.message === "event loop blocked" && at(line) > at(listening))
      .map((line) => line.json!);
    reports.push(
      `${label}: /readyz 200 ${readyMs} ms after spawn (listening at ${at(listening) - spawned} ms, database ready ` +
        `${String(database?.json?.ms)} ms after the app asked for it), CPU ${cpuMs ?? "?"} ms; ` +
        `event loop warnings after listening: ${JSON.stringify(blocked.map(({ ms, heldMs }) => ({ ms, heldMs })))}`,
    );
    for (const line of blocked) expect(Number(line.heldMs)).toBeLessThanOrEqual(HELD_MS_MAX);
    return lines;
  }

  it("reports a first start from the template and a restart", { timeout: 300_000 }, async () => {
    const dataDir = path.join(root, "data");
    await startAndMeasure("fresh, from the build's template", { DATA_DIR: dataDir, DATA_TEMPLATE_DIR: undefined });
    await startAndMeasure("restart", { DATA_DIR: dataDir });
  });
});
