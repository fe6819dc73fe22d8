import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { environmentWithoutAppVariables } from "../support/app-process.ts";
import { freePort } from "../support/postgres.ts";
import { onCleanup, ROOT, sleep, stopChild } from "./run.ts";

/**
 * The app server: `node server.ts` as ops run it, its JSON log written to a file (read for the sign-in link and the
 * server's own request times) rather than piped through this process, which is busy generating load.
 */

export type LogEntry = Record<string, unknown>;
export type AppServer = {
  label: string;
  baseUrl: string;
  logFile: string;
  startMs: number;
  logs(): LogEntry[];
  stop(): Promise<void>;
};

export function readLog(file: string): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      entries.push(JSON.parse(line) as LogEntry);
    } catch {
      // a line being written right now
    }
  }
  return entries;
}

export const logTail = (file: string) => readFileSync(file, "utf8").split("\n").slice(-30).join("\n");

export async function startApp(tmp: string, label: string, env: Record<string, string>): Promise<AppServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(tmp, `${label}-server.log`);
  const childEnv = environmentWithoutAppVariables();
  Object.assign(childEnv, {
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: baseUrl,
    SESSION_SECRET: randomBytes(24).toString("hex"),
    LOG_LEVEL: "info",
    APP_STAGE: "test",
    ...env,
  });
  const fd = openSync(logFile, "a");
  const t0 = performance.now();
  const child = spawn(process.execPath, ["server.ts"], { cwd: ROOT, env: childEnv, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = () => stopChild(child, exited);
  const unregister = onCleanup(`${label} server (pid ${child.pid})`, stop);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the ${label} server exited (${child.exitCode ?? child.signalCode}) before /readyz answered; its log:\n${logTail(logFile)}`,
      );
    }
    try {
      const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(3_000) });
      await response.body?.cancel();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`the ${label} server did not become healthy in 120 s; its log:\n${logTail(logFile)}`);
    await sleep(100);
  }
  return {
    label,
    baseUrl,
    logFile,
    startMs: Math.round(performance.now() - t0),
    logs: () => readLog(logFile),
    stop: async () => {
      await stop();
      unregister();
    },
  };
}
