import { mkdirSync, rmdirSync, statfsSync, statSync, unlinkSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { hostname } from "node:os";
import path from "node:path";

/** A Unix socket in DATA_DIR: whoever listens on it owns the directory. */
const LOCK_SOCKET = "polyglot.lock";
/** A short-lived directory that makes taking over a dead owner's socket one process at a time. */
const TAKEOVER_DIR = "polyglot.lock.takeover";
/** A takeover never takes this long; an older takeover directory was left by a process killed during one. */
const TAKEOVER_STALE_MS = 10_000;
/** PGlite writes its WAL in 16 MiB segments: with less free space than this it cannot work. */
const MIN_FREE_BYTES = 32 * 1024 * 1024;
/** sun_path holds 108 bytes on Linux, the terminating NUL included. */
const MAX_SOCKET_PATH = 107;

type Holder = { pid?: number; host?: string; since?: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const code = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code;

const PROBLEMS: Record<string, string> = {
  EROFS: "is on a read-only file system",
  EACCES: "is not writable by this process",
  EPERM: "is not writable by this process",
  ENOSPC: "has no free space left",
  EDQUOT: "has exhausted its disk quota",
  ENOTDIR: "is not a directory",
  EEXIST: "is not a directory",
};

/** A start-up failure that names the directory, the problem and the system's error code. */
function dataDirError(dir: string, error: unknown): Error {
  const problem =
    PROBLEMS[code(error) ?? ""] ?? `cannot be used (${error instanceof Error ? error.message : String(error)})`;
  return new Error(
    `DATA_DIR ${dir} ${problem}${code(error) ? ` (${code(error)})` : ""}: the embedded database needs a writable directory with free space.`,
    {
      cause: error,
    },
  );
}

/** Throws, naming the directory, when it has too little free space for the embedded database to write. */
export function assertFreeSpace(dataDir: string): void {
  const dir = path.resolve(dataDir);
  const free = statfsSync(dir);
  if (free.bavail * free.bsize < MIN_FREE_BYTES)
    throw dataDirError(dir, Object.assign(new Error("no space"), { code: "ENOSPC" }));
}

/** The owner's side: tells whoever connects which process holds the directory. */
function createOwner(holder: Holder): Server {
  const server = createServer((socket) => {
    socket.on("error", () => {
      // A prober that hangs up early is no concern of the owner.
    });
    socket.end(JSON.stringify(holder));
  });
  return server;
}

function listen(server: Server, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once("error", onError);
    server.listen(file, () => {
      server.off("error", onError);
      // Once listening, an error (a failed accept) concerns one prober and never ends the ownership.
      server.on("error", () => {});
      resolve();
    });
  });
}

/** Who listens on the socket: null when nobody does (its owner died, or the file is a leftover), else what it says. */
function probe(file: string): Promise<Holder | null> {
  return new Promise((resolve, reject) => {
    let text = "";
    let connected = false;
    const socket = createConnection(file);
    const finish = (holder: Holder | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(holder);
    };
    // A live owner whose event loop is busy still accepts the connection (the kernel queues it) but may not answer.
    const timer = setTimeout(() => finish(connected ? {} : null), 2_000);
    socket.setEncoding("utf8");
    socket.on("connect", () => (connected = true));
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => {
      try {
        finish(JSON.parse(text) as Holder);
      } catch {
        finish({});
      }
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      socket.destroy();
      if (connected) resolve({});
      else if (["ECONNREFUSED", "ENOENT", "ENOTSOCK"].includes(code(error) ?? "")) resolve(null);
      else reject(error);
    });
  });
}

function inUse(dir: string, holder: Holder): Error {
  const who = holder.pid ? `process ${holder.pid} on ${holder.host ?? "an unknown host"}` : "another process";
  return new Error(
    `DATA_DIR ${dir} is in use by ${who}. Only one process may use an embedded database; ` +
      `set DATABASE_URL to share PostgreSQL between instances.`,
  );
}

/** A recursive mkdir reports ENOENT where a step fails with EROFS: create the first missing step alone to learn why. */
function firstMkdirError(dir: string): unknown {
  let missing = dir;
  while (path.dirname(missing) !== missing && !statSync(path.dirname(missing), { throwIfNoEntry: false }))
    missing = path.dirname(missing);
  try {
    mkdirSync(missing);
    return null;
  } catch (error) {
    return error;
  }
}

/** Runs `fn` while holding the takeover directory, waiting for another process's takeover to finish. */
async function whileTakingOver<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const mutex = path.join(dir, TAKEOVER_DIR);
  const deadline = Date.now() + TAKEOVER_STALE_MS + 2_000;
  for (;;) {
    try {
      mkdirSync(mutex);
      break;
    } catch (error) {
      if (code(error) !== "EEXIST") throw error;
      const age = Date.now() - (statSync(mutex, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > TAKEOVER_STALE_MS) removeQuietly(mutex);
      else if (Date.now() > deadline) throw new Error(`DATA_DIR ${dir}: ${mutex} did not go away`, { cause: error });
      else await sleep(50);
    }
  }
  try {
    return await fn();
  } finally {
    removeQuietly(mutex);
  }
}

/** Removes an empty directory that another process may have removed already. */
function removeQuietly(directory: string) {
  try {
    rmdirSync(directory);
  } catch (error) {
    if (code(error) !== "ENOENT") throw error;
  }
}

/**
 * PGlite has no lock of its own: a second process on the same directory would silently lose its writes. The owner
 * listens on a Unix socket in the directory; the kernel closes it when the process ends in any way (`kill -9` and
 * out-of-memory kills included), so a restarted container (PID 1 again, or a new hostname) finds nobody listening and
 * takes over, while a live owner answers and a second process fails at once, naming it. Process ids are only reported,
 * never compared. The directory is also checked for being writable and having free space, with a message that says so.
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  const dir = path.resolve(dataDir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw dataDirError(dir, firstMkdirError(dir) ?? error);
  }
  const file = path.join(dir, LOCK_SOCKET);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    throw new Error(
      `DATA_DIR ${dir} is too long a path for its lock socket (at most ${MAX_SOCKET_PATH - LOCK_SOCKET.length - 1} bytes): choose a shorter one.`,
    );
  }
  const holder: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  let server = createOwner(holder);
  try {
    await listen(server, file);
  } catch (error) {
    if (code(error) !== "EADDRINUSE") throw dataDirError(dir, error);
    const owner = await probe(file);
    if (owner) throw inUse(dir, owner);
    await whileTakingOver(dir, async () => {
      // Checked again under the takeover lock: another process may have taken over since.
      const current = await probe(file);
      if (current) throw inUse(dir, current);
      try {
        unlinkSync(file);
      } catch (unlinkError) {
        if (code(unlinkError) !== "ENOENT") throw dataDirError(dir, unlinkError);
      }
      server = createOwner(holder);
      try {
        await listen(server, file);
      } catch (listenError) {
        if (code(listenError) === "EADDRINUSE") throw inUse(dir, (await probe(file)) ?? {});
        throw dataDirError(dir, listenError);
      }
    });
  }
  // The socket must not keep a stopping process alive.
  server.unref();
  try {
    assertFreeSpace(dir);
  } catch (error) {
    server.close();
    throw error;
  }
  // Closing the server removes the socket file.
  return () => server.close();
}
