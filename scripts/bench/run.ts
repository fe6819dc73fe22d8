/** The bench's knobs (environment variables), progress output, and the clean-up every temp dir and process registers. */
import { type ChildProcess } from "node:child_process";
import path from "node:path";
import { BROWSER_USER_AGENT } from "../support/app-process.ts";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const RESULTS_FILE = path.join(ROOT, "bench-results.json");
export const EMAIL = "bench.learner@example.test";
export const SEED = 20_261_122;

export function knob(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}
export const TERMS = knob("BENCH_TERMS", 10_000);
/** Known words of the reader's learner (ignored_words), besides the terms (issue 54). */
export const KNOWN_WORDS = knob("BENCH_KNOWN_WORDS", 20_000);
export const SAMPLES = knob("BENCH_SAMPLES", 200);
export const RPS_DURATION_S = knob("BENCH_DURATION_S", 10);
export const RPS_CONNECTIONS = knob("BENCH_CONNECTIONS", 50);
export const USE_BROWSER = process.env.BENCH_BROWSER !== "0";
/** A series stops early (and says so) after this long, to keep the whole run within about four minutes. */
export const SERIES_CAP_MS = 30_000;

export const BASE_HEADERS = {
  "User-Agent": BROWSER_USER_AGENT,
  Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "Accept-Language": "en",
};
/** What a browser sends on page loads; the app's responses are then compressed as they would be for a browser. */
export const BROWSER_ENCODINGS = "gzip, deflate, br";

// Clean-up: every temp dir and process is registered here and undone in reverse order, also on failure or Ctrl-C.

export type Cleanup = { label: string; run: () => unknown };
export const cleanups: Cleanup[] = [];
export function onCleanup(label: string, run: () => unknown): () => void {
  const entry = { label, run };
  cleanups.push(entry);
  return () => {
    const index = cleanups.indexOf(entry);
    if (index >= 0) cleanups.splice(index, 1);
  };
}
export let cleaning: Promise<void> | null = null;
export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const entry = cleanups.pop()!;
      try {
        await entry.run();
      } catch (error) {
        console.error(`clean-up of ${entry.label} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleaning;
}
/** Set on Ctrl-C: no new requests, so the servers can stop at once. */
export let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const started = performance.now();
export const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
export const progress = (message: string) => console.error(`[${elapsed().padStart(7)}] ${message}`);

/** Waits for a child to end: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(killer);
}
