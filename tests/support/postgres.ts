/**
 * A real, throwaway PostgreSQL server for tests: Debian's binaries, a fresh data directory under the system temp
 * directory, trust authentication, listening on 127.0.0.1 only (and a Unix socket inside the temp directory), with
 * fsync off because nothing in it has to survive. `stop()` shuts it down and removes every file it wrote.
 */
import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";

export type PostgresServer = {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the server's maintenance database. */
  url: string;
  port: number;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and deletes its files; safe to call twice. */
  stop(): Promise<void>;
  /** Shuts the server down ("fast": open connections are closed, as in a restart or failover) and keeps its files. */
  halt(): Promise<void>;
  /** Starts a halted server again on the same port and data; resolves once it accepts connections. */
  resume(): Promise<void>;
};

const POSTGRES_ROOT = "/usr/lib/postgresql";

/** The newest `/usr/lib/postgresql/<version>/bin` that has initdb, pg_ctl and postgres. */
export function findPostgresBin(): string {
  const versions = existsSync(POSTGRES_ROOT)
    ? readdirSync(POSTGRES_ROOT)
        .filter((version) => /^\d+$/.test(version))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const bin = path.join(POSTGRES_ROOT, version, "bin");
    if (["initdb", "pg_ctl", "postgres"].every((tool) => existsSync(path.join(bin, tool)))) return bin;
  }
  throw new Error(
    `PostgreSQL server binaries not found (looked for ${POSTGRES_ROOT}/<version>/bin/initdb). ` +
      `These tests start a real PostgreSQL server: install Debian's postgresql (apt-get install -y postgresql).`,
  );
}

/** A TCP port nobody listens on right now (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

type Run = { stdout: string; stderr: string };

function run(file: string, args: string[], asUser: string | null): Promise<Run> {
  // PostgreSQL refuses to run as root: as root, every tool runs as the postgres user.
  const [command, commandArgs] = asUser ? ["runuser", ["-u", asUser, "--", file, ...args]] : [file, args];
  return new Promise((resolve, reject) => {
    execFile(command, commandArgs, { timeout: 60_000, env: { ...process.env, LC_ALL: "C.UTF-8", LANG: "C.UTF-8" } }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`${path.basename(file)} failed: ${error.message}\n${stdout}\n${stderr}`.trim(), { cause: error }));
      } else {
        resolve({ stdout, stderr });
      }
    });
  });
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** PostgreSQL identifiers the helper accepts for database names: lower-case letters, digits and `_`. */
const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Creates an empty database on the server at `serverUrl` and returns the new database's URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  if (!DATABASE_NAME.test(name)) throw new Error(`invalid database name ${JSON.stringify(name)}: use [a-z_][a-z0-9_]*`);
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}" ENCODING 'UTF8' TEMPLATE template0`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Starts a fresh PostgreSQL server on a free loopback port; resolves once it accepts connections. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = findPostgresBin();
  const user = isRoot() ? "postgres" : null;
  const root = mkdtempSync(path.join(tmpdir(), "polyglot-pg-"));
  const dataDir = path.join(root, "data");
  const logFile = path.join(root, "postgres.log");
  let started = false;
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  try {
    if (user) {
      let ids: { uid: number; gid: number };
      try {
        const { stdout } = await run("id", ["-u", user], null);
        const { stdout: gid } = await run("id", ["-g", user], null);
        ids = { uid: Number(stdout.trim()), gid: Number(gid.trim()) };
      } catch (error) {
        throw new Error(`running as root, but there is no "${user}" user to run PostgreSQL as: install Debian's postgresql`, { cause: error });
      }
      chownSync(root, ids.uid, ids.gid);
    }
    await run(path.join(bin, "initdb"), ["-D", dataDir, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"], user);

    // The port is free when chosen but could be taken before postgres binds it: try a few.
    let port = 0;
    let lastError: unknown;
    for (let attempt = 0; attempt < 3 && !started; attempt++) {
      port = await freePort();
      const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${root} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        await run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-l", logFile, "-w", "-t", "30", "-o", options, "start"], user);
        started = true;
      } catch (error) {
        lastError = error;
      }
    }
    if (!started) {
      const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
      throw new Error(`PostgreSQL did not start: ${lastError instanceof Error ? lastError.message : String(lastError)}\n${log}`, { cause: lastError });
    }

    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${root} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    let stopped: Promise<void> | null = null;
    return {
      url,
      port,
      createDatabase: (name) => createDatabase(url, name),
      async halt() {
        await run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "stop"], user);
      },
      async resume() {
        await run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-l", logFile, "-w", "-t", "30", "-o", options, "start"], user);
      },
      stop() {
        stopped ??= run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"], user)
          .then(() => undefined)
          .finally(cleanup);
        return stopped;
      },
    };
  } catch (error) {
    if (started) await run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"], user).catch(() => undefined);
    cleanup();
    throw error;
  }
}
