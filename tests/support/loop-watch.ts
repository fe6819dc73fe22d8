/**
 * What a piece of work cost the server's event loop, measured so that a busy test machine does not count: a turn of
 * the loop counts as held only for the main thread's own CPU time between two turns, never for the time the process
 * waited for a core. Used by the tests of bounded work (issue 20): every attack is answered while no turn is held for
 * more than LOOP_BOUND_MS and a liveness probe that does not touch the database answers throughout.
 */
import { readFileSync } from "node:fs";
import { rawRequest } from "./raw-http.ts";
import type { ServerProcess } from "./server-process.ts";

/** The longest turn of the event loop any request may cause. */
export const LOOP_BOUND_MS = 100;

/** A file the server sends from its build: no session, no page cache, no database. */
export const LIVENESS_PATH = "/favicon.svg";

/** CPU time of a whole process (all its threads) so far, from /proc, in milliseconds (10 ms steps). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command name, which may hold spaces: utime and stime are the 12th and 13th of them.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

export type LoopReport = {
  /** The server's reports of a turn held for more than LOOP_BOUND_MS by its own CPU time. */
  blocked: string[];
  /** The longest turn the server held by its own CPU (0 when no turn was delayed past its warning threshold). */
  heldMs: number;
  /** The longest delay of a turn the server reported, held or waiting for a core. */
  delayMs: number;
  /** How long the liveness probes took, each. */
  probes: number[];
  /** The probes that got anything but a 200. */
  probeFailures: string[];
  /** How long the work took, and the server's CPU time meanwhile (all its threads). */
  wallMs: number;
  cpuMs: number;
  /**
   * How long the work took the server: its wall time, unless the server used less CPU than that (the machine, shared
   * with other tests, kept it waiting for a core).
   */
  serverMs: number;
};

/**
 * Runs `work` while probing the server's liveness every 50 ms, then waits for the server's report of the second that
 * covered its end and collects what it said about its event loop (and nothing it said about what ran before).
 */
export async function loopDuring<T>(
  server: ServerProcess,
  work: () => Promise<T>,
  boundMs = LOOP_BOUND_MS,
): Promise<LoopReport & { result: T }> {
  // The server reports each second when it ends: the report covering what ran before the work is out first.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const first = server.logs().length;
  const probes: number[] = [];
  const probeFailures: string[] = [];
  const probing = { on: true };
  const probe = (async () => {
    while (probing.on) {
      const started = performance.now();
      try {
        const answer = await rawRequest(server, { path: LIVENESS_PATH });
        if (answer.status !== 200) probeFailures.push(`status ${answer.status}`);
      } catch (error) {
        probeFailures.push(error instanceof Error ? error.message : String(error));
      }
      probes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  let result: T;
  const started = performance.now();
  const startCpu = processCpuMs(server.pid);
  let wallMs: number;
  let cpuMs: number;
  try {
    result = await work();
  } finally {
    wallMs = performance.now() - started;
    cpuMs = processCpuMs(server.pid) - startCpu;
    probing.on = false;
    await probe;
  }
  // The server reports each second when it ends: wait for the report that covers the end of the work.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const reports = server
    .logs()
    .slice(first)
    .filter((line) => line.json?.message === "event loop blocked")
    .map((line) => ({ ms: Number(line.json!.ms), heldMs: Number(line.json!.heldMs) }));
  return {
    result,
    blocked: reports
      .filter((report) => Math.min(report.ms, report.heldMs) > boundMs)
      .map((report) => `${report.ms} ms delay, ${report.heldMs} ms of CPU between two turns`),
    heldMs: Math.max(0, ...reports.map((report) => Math.min(report.ms, report.heldMs))),
    delayMs: Math.max(0, ...reports.map((report) => report.ms)),
    probes,
    probeFailures,
    wallMs,
    cpuMs,
    serverMs: Math.min(wallMs, cpuMs),
  };
}
