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
const standardStreams: LogSink = (line, level) =>
  void (level === "error" ? process.stderr : process.stdout).write(line + "\n");
let sink = standardStreams;

/** Sends log lines elsewhere (tests collect them and show them only for a failed test); `null` restores stdout/stderr. */
export function setLogSink(next: LogSink | null) {
  sink = next ?? standardStreams;
}

function write(level: Level, message: string, fields: Record<string, unknown> = {}) {
  if (LEVELS[level] < threshold) return;
  sink(JSON.stringify({ time: new Date().toISOString(), level, message, ...serialise(fields) }), level);
}

/** One JSON line per event, on stdout (errors on stderr), filtered by LOG_LEVEL. */
export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
