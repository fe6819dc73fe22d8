/**
 * A real, throwaway PostgreSQL server for tests: Debian's binaries (or those named by PG_BIN, or `pg_config --bindir`),
 * a fresh data directory in the run's temp directory, trust authentication, listening on 127.0.0.1 only (no Unix
 * socket), with fsync off because nothing in it has to survive. `stop()` shuts it down and
 * removes every file it wrote; a test process that ends without calling it stops the server on exit.
 */
import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { Client } from "pg";
import { tempDir } from "./temp.ts";

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
const SERVER_TOOLS = ["initdb", "pg_ctl", "postgres"];
const hasServerTools = (bin: string) => SERVER_TOOLS.every((tool) => existsSync(path.join(bin, tool)));

/** `pg_config --bindir` of a PostgreSQL on the PATH (Homebrew, Postgres.app, a source build), or null. */
function pgConfigBin(): string | null {
  try {
    return (
      execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || null
    );
  } catch {
    return null;
  }
}

/**
 * The folder with initdb, pg_ctl and postgres: PG_BIN when set (it must have them), else the newest
 * `/usr/lib/postgresql/<version>/bin` (Debian), else `pg_config --bindir`. scripts/test-prerequisites.sh looks in the
 * same places.
 */
export function findPostgresBin(): string {
  const given = process.env.PG_BIN;
  if (given) {
    if (hasServerTools(given)) return given;
    throw new Error(`PG_BIN=${given} has no ${SERVER_TOOLS.join(", ")}: point it at a PostgreSQL server's bin folder`);
  }
  const versions = existsSync(POSTGRES_ROOT)
    ? readdirSync(POSTGRES_ROOT)
        .filter((version) => /^\d+$/.test(version))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const bin = path.join(POSTGRES_ROOT, version, "bin");
    if (hasServerTools(bin)) return bin;
  }
  const fromPgConfig = pgConfigBin();
  if (fromPgConfig && hasServerTools(fromPgConfig)) return fromPgConfig;
  throw new Error(
    `PostgreSQL server binaries not found (looked in PG_BIN, ${POSTGRES_ROOT}/<version>/bin and \`pg_config --bindir\`). ` +
      `These tests start a real PostgreSQL server: install Debian's postgresql (apt-get install -y postgresql), ` +
      `or set PG_BIN to the bin folder of another PostgreSQL (e.g. PG_BIN=$(brew --prefix postgresql@17)/bin).`,
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
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

type Run = { stdout: string; stderr: string };

/** The server's locale: macOS has no C.UTF-8; its en_US.UTF-8 is there on every install. */
const LOCALE = process.platform === "darwin" ? "en_US.UTF-8" : "C.UTF-8";

function run(file: string, args: string[], asUser: string | null): Promise<Run> {
  // PostgreSQL refuses to run as root: as root, every tool runs as the postgres user.
  const [command, commandArgs] = asUser ? ["runuser", ["-u", asUser, "--", file, ...args]] : [file, args];
  return new Promise((resolve, reject) => {
    execFile(
      command,
      commandArgs,
      { timeout: 60_000, env: { ...process.env, LC_ALL: LOCALE, LANG: LOCALE } },
      (error, stdout, stderr) => {
        if (error) {
          reject(
            new Error(`${path.basename(file)} failed: ${error.message}\n${stdout}\n${stderr}`.trim(), { cause: error }),
          );
        } else {
          resolve({ stdout, stderr });
        }
      },
    );
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
  const root = tempDir("pg");
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
        throw new Error(
          `running as root, but there is no "${user}" user to run PostgreSQL as: install Debian's postgresql`,
          { cause: error },
        );
      }
      chownSync(root, ids.uid, ids.gid);
    }
    await run(
      path.join(bin, "initdb"),
      ["-D", dataDir, "-A", "trust", "-U", "postgres", "-E", "UTF8", `--locale=${LOCALE}`, "--no-sync"],
      user,
    );

    // The port is free when chosen but could be taken before postgres binds it: try a few.
    let port = 0;
    let lastError: unknown;
    for (let attempt = 0; attempt < 3 && !started; attempt++) {
      port = await freePort();
      // TCP on loopback only, no Unix socket: a socket path in a deep temp folder (macOS) can exceed the 104-byte limit.
      const options = `-p ${port} -c listen_addresses=127.0.0.1 -k '' -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        await run(
          path.join(bin, "pg_ctl"),
          ["-D", dataDir, "-l", logFile, "-w", "-t", "30", "-o", options, "start"],
          user,
        );
        started = true;
      } catch (error) {
        lastError = error;
      }
    }
    if (!started) {
      const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
      throw new Error(
        `PostgreSQL did not start: ${lastError instanceof Error ? lastError.message : String(lastError)}\n${log}`,
        { cause: lastError },
      );
    }

    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    // The same options as the start above: resume() starts the server again on the same port.
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -k '' -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    // A test process that ends without stop() (a crash, an interrupted run) must not leave a server and its files.
    const stopOnExit = () => {
      const [command, args] = user
        ? ["runuser", ["-u", user, "--", path.join(bin, "pg_ctl")]]
        : [path.join(bin, "pg_ctl"), []];
      try {
        execFileSync(command, [...args, "-D", dataDir, "-m", "immediate", "-w", "stop"], {
          stdio: "ignore",
          timeout: 10_000,
        });
      } catch {
        // already stopped
      }
      cleanup();
    };
    process.once("exit", stopOnExit);
    let stopped: Promise<void> | null = null;
    return {
      url,
      port,
      createDatabase: (name) => createDatabase(url, name),
      async halt() {
        await run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "stop"], user);
      },
      async resume() {
        await run(
          path.join(bin, "pg_ctl"),
          ["-D", dataDir, "-l", logFile, "-w", "-t", "30", "-o", options, "start"],
          user,
        );
      },
      stop() {
        process.off("exit", stopOnExit);
        stopped ??= run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"], user)
          .then(() => undefined)
          .finally(cleanup);
        return stopped;
      },
    };
  } catch (error) {
    if (started)
      await run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"], user).catch(
        () => undefined,
      );
    cleanup();
    throw error;
  }
}
