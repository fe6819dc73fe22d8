/**
 * Runs the production server (`node server.ts`, as ops run it) in a child process for integration tests.
 *
 * It serves the build in ./build: run `npm run build` first. `npm test` builds before it runs vitest; when you run
 * vitest yourself, build first or you test yesterday's code (a missing build is reported, a stale one is not).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { APP_VARIABLES, BROWSER_USER_AGENT } from "../../scripts/support/app-process.ts";
import { freePort } from "../../scripts/support/postgres.ts";
import { tempDir } from "./temp.ts";
import { captureLogLine } from "./test-logs.ts";

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
export const TEST_SESSION_SECRET = "integration-test-session-secret-0123456789abcdef";
export { BROWSER_USER_AGENT };

export type LogLine = {
  stream: "stdout" | "stderr";
  text: string;
  /** The parsed JSON log line, or null for anything else (e.g. a stack trace). */
  json: Record<string, unknown> | null;
};

export type ServerProcess = {
  /** `http://127.0.0.1:<port>`, also the server's APP_URL. */
  baseUrl: string;
  port: number;
  pid: number;
  /** The DATA_DIR the server was given. */
  dataDir: string;
  /** Every line the server wrote so far, stdout and stderr (errors are logged on stderr), in order of arrival. */
  logs(): LogLine[];
  /** Resolves with the first line (already written or yet to come) that matches; rejects on timeout or exit. */
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves once GET /readyz answers 200; rejects when the process exits first or on timeout. */
  waitForHealthy(timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code (null when killed by a signal) when the process ends by itself. */
  exited: Promise<number | null>;
  /** SIGTERM (SIGKILL after 15 s), resolves with the exit code; when already exited, with that code. */
  stop(): Promise<number | null>;
  /** Sends a signal (e.g. SIGKILL, as an out-of-memory kill) and resolves when the process has ended. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
};

export type ServerOptions = {
  /** Extra or overriding environment variables (e.g. DATABASE_URL, DATA_DIR). `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** Wait for /readyz 200 before resolving (default true). */
  waitForHealthy?: boolean;
  healthTimeoutMs?: number;
  /** Node's own options before `server.ts`, e.g. `--conditions=development` as `npm run dev` gives them. */
  nodeOptions?: string[];
};

function parseJson(text: string): Record<string, unknown> | null {
  if (!text.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `node server.ts` on a free port of 127.0.0.1 with a test configuration. */
export async function startServer(options: ServerOptions = {}): Promise<ServerProcess> {
  const serverBuild = path.join(PROJECT_ROOT, "build", "server", "index.js");
  if (!existsSync(serverBuild)) throw new Error(`${serverBuild} is missing: run \`npm run build\` before these tests`);
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 24) {
    throw new Error(
      `server.ts needs Node 24 but vitest runs on ${process.version} (${process.execPath}): run vitest through npm or npx`,
    );
  }

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const ownDataDir = options.env?.DATA_DIR === undefined ? tempDir("server") : null;
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of APP_VARIABLES) delete env[name];
  Object.assign(env, {
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: baseUrl,
    SESSION_SECRET: TEST_SESSION_SECRET,
    LOG_LEVEL: "info",
    APP_STAGE: "test",
    DATA_DIR: ownDataDir ?? undefined,
    ...options.env,
  });
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const dataDir = path.resolve(PROJECT_ROOT, env.DATA_DIR ?? "./data");

  const child: ChildProcess = spawn(process.execPath, [...(options.nodeOptions ?? []), "server.ts"], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: LogLine[] = [];
  const listeners = new Set<(line: LogLine) => void>();
  for (const stream of ["stdout", "stderr"] as const) {
    let pending = "";
    const source = child[stream];
    source?.setEncoding("utf8");
    const push = (text: string) => {
      const line: LogLine = { stream, text, json: parseJson(text) };
      lines.push(line);
      captureLogLine(`[server ${port}, ${stream}] ${text}`);
      for (const listener of listeners) listener(line);
    };
    source?.on("data", (chunk: string) => {
      pending += chunk;
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      for (const part of parts) if (part) push(part);
    });
    source?.on("end", () => {
      if (pending) push(pending);
      pending = "";
    });
  }

  let exitCode: number | null | undefined;
  // A test process that ends without stop() (a crash, an interrupted run) takes its server and data along.
  const killOnExit = () => {
    child.kill("SIGKILL");
    if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
  };
  process.once("exit", killOnExit);
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      exitCode = code;
      process.off("exit", killOnExit);
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
      resolve(code);
    });
  });
  const describe = () =>
    `server ${baseUrl} (pid ${child.pid}); its output:\n${lines.map((line) => `  ${line.text}`).join("\n")}`;

  const waitForLog = (predicate: (line: LogLine) => boolean, timeoutMs = 10_000) =>
    new Promise<LogLine>((resolve, reject) => {
      const found = lines.find(predicate);
      if (found) return resolve(found);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(listener);
      };
      const listener = (line: LogLine) => {
        if (!predicate(line)) return;
        done();
        resolve(line);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching log line within ${timeoutMs} ms from ${describe()}`));
      }, timeoutMs);
      listeners.add(listener);
      void exited.then(async (code) => {
        await sleep(50); // the last lines of a pipe can arrive after the exit event
        if (!listeners.has(listener)) return;
        done();
        const late = lines.find(predicate);
        if (late) resolve(late);
        else reject(new Error(`process exited with ${code} before a matching log line; ${describe()}`));
      });
    });

  const waitForHealthy = async (timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (exitCode !== undefined) throw new Error(`exited with ${exitCode} before /readyz answered 200; ${describe()}`);
      try {
        const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) });
        await response.body?.cancel();
        if (response.status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`/readyz did not answer 200 within ${timeoutMs} ms; ${describe()}`);
      await sleep(100);
    }
  };

  const stop = async () => {
    if (exitCode !== undefined) return exitCode;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const code = await exited;
    clearTimeout(killer);
    return code;
  };

  const server: ServerProcess = {
    baseUrl,
    port,
    pid: child.pid ?? -1,
    dataDir,
    logs: () => [...lines],
    waitForLog,
    waitForHealthy,
    exited,
    stop,
    kill: async (signal) => {
      if (exitCode === undefined) child.kill(signal);
      return exited;
    },
  };
  if (options.waitForHealthy ?? true) {
    try {
      await waitForHealthy(options.healthTimeoutMs);
    } catch (error) {
      await stop();
      throw error;
    }
  }
  return server;
}
