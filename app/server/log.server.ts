import { env } from "../config/env.server";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;
const threshold = LEVELS[env.LOG_LEVEL];

/** Error messages are cut here: a message can quote what was sent, and a log line never carries a learner's data. */
const MESSAGE_LIMIT = 300;

/**
 * An error's message without the data it may carry: a failed query's message lists its parameters (a learner's rows),
 * so only the statement is kept, with the database's own reason (its cause), each cut to a few hundred characters.
 */
function errorMessage(error: Error): string {
  const message = error.message.replace(/\nparams: [\s\S]*$/, "").slice(0, MESSAGE_LIMIT);
  const cause = error.cause instanceof Error ? error.cause.message.slice(0, MESSAGE_LIMIT) : null;
  return cause ? `${message} (${cause})` : message;
}

function serialise(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] =
      value instanceof Error
        ? {
            message: errorMessage(value),
            ...(env.NODE_ENV === "production"
              ? {}
              : { stack: value.stack?.slice(Math.max(0, value.stack.indexOf("\n    at "))) }),
          }
        : value;
  }
  return out;
}

/** Receives each JSON line (without its newline). */
export type LogSink = (line: string, level: Level) => void;
/**
 * stdout is written at most every FLUSH_MS, or once 16 KiB of lines wait: Node writes to files and pipes synchronously
 * on Linux, and one system call per request line had cost a kept page about a sixth of its time (one per turn of the
 * event loop still 3 %). Errors go out at once, after what was waiting (so the order holds); what waits is written on
 * exit too. A process killed outright loses at most the last FLUSH_MS of lines.
 */
let waiting = "";
let flushScheduled = false;
const WAITING_LIMIT = 16 * 1024;
const FLUSH_MS = 20;
function flushStdout() {
  flushScheduled = false;
  if (waiting === "") return;
  const out = waiting;
  waiting = "";
  process.stdout.write(out);
}
process.on("exit", flushStdout);
const standardStreams: LogSink = (line, level) => {
  if (level === "error") {
    flushStdout();
    process.stderr.write(line + "\n");
    return;
  }
  waiting += line + "\n";
  if (waiting.length >= WAITING_LIMIT) flushStdout();
  else if (!flushScheduled) {
    flushScheduled = true;
    setTimeout(flushStdout, FLUSH_MS).unref();
  }
};
let sink = standardStreams;

/** Sends log lines elsewhere (tests collect them and show them only for a failed test); `null` restores stdout/stderr. */
export function setLogSink(next: LogSink | null) {
  sink = next ?? standardStreams;
}

/** The time of the last line, kept for the millisecond: a busy server writes many lines in one. */
let lastMs = 0;
let lastTime = "";
function timeNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = new Date(now).toISOString();
  }
  return lastTime;
}

function write(level: Level, message: string, fields: Record<string, unknown> = {}) {
  if (LEVELS[level] < threshold) return;
  let plain = true;
  for (const key in fields) if (fields[key] instanceof Error) plain = false;
  // The fields are written as they are unless an error among them needs its message trimmed (every request's line
  // is plain: copying its fields had cost ~2 % of a kept page's time).
  const rest = JSON.stringify(plain ? fields : serialise(fields));
  const head = `{"time":"${timeNow()}","level":"${level}","message":${JSON.stringify(message)}`;
  sink(rest === "{}" ? `${head}}` : `${head},${rest.slice(1)}`, level);
}

/** One JSON line per event, on stdout (errors on stderr), filtered by LOG_LEVEL. */
export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
