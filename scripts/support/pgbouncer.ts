/**
 * A throwaway PgBouncer in transaction mode in front of a test PostgreSQL server (scripts/support/postgres.ts), as a
 * managed host's pooler: Debian's /usr/sbin/pgbouncer (or the one named by PGBOUNCER, or `pgbouncer` on the PATH), its
 * defaults otherwise (no `ignore_startup_parameters`, no prepared statements), listening on 127.0.0.1 only. Every
 * database of the server is reachable through it under its own name. `stop()` ends it and removes its files; a test
 * process that ends without calling it stops it on exit.
 */
import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { freePort } from "./postgres.ts";
import { tempDir } from "./temp.ts";

export type PgBouncer = {
  port: number;
  /** Its process id (the bench reads its CPU time). */
  pid: number | undefined;
  /** The same database as `databaseUrl` (a URL of the server behind), through the pooler. */
  pooled(databaseUrl: string): string;
  /** Stops it and deletes its files; safe to call twice. */
  stop(): Promise<void>;
};

const DEBIAN_PGBOUNCER = "/usr/sbin/pgbouncer";

/** PGBOUNCER when set, else Debian's, else `pgbouncer` on the PATH. scripts/test-prerequisites.sh looks the same way. */
export function findPgBouncer(): string {
  const given = process.env.PGBOUNCER;
  if (given) {
    if (existsSync(given)) return given;
    throw new Error(`PGBOUNCER=${given} does not exist: point it at a pgbouncer binary`);
  }
  if (existsSync(DEBIAN_PGBOUNCER)) return DEBIAN_PGBOUNCER;
  try {
    return execFileSync("sh", ["-c", "command -v pgbouncer"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error(
      "PgBouncer not found (looked in PGBOUNCER, /usr/sbin/pgbouncer and the PATH). Some PostgreSQL tests run through " +
        "a pooler in transaction mode: install Debian's pgbouncer (apt-get install -y pgbouncer) or set PGBOUNCER.",
    );
  }
}

/** Resolves once something accepts connections on the port, or rejects after `timeoutMs`. */
async function accepting(port: number, timeoutMs: number, exited: () => string | null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    const reason = exited();
    if (reason !== null || Date.now() > deadline) throw new Error(reason ?? `nothing listens on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts PgBouncer in transaction mode in front of the PostgreSQL server on `postgresPort`. */
export async function startPgBouncer(postgresPort: number): Promise<PgBouncer> {
  const binary = findPgBouncer();
  const root = tempDir("pgbouncer");
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  const port = await freePort();
  const logFile = path.join(root, "pgbouncer.log");
  const config = path.join(root, "pgbouncer.ini");
  writeFileSync(path.join(root, "userlist.txt"), '"postgres" ""\n');
  writeFileSync(
    config,
    [
      "[databases]",
      `* = host=127.0.0.1 port=${postgresPort}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(root, "userlist.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 1000",
      "default_pool_size = 20",
      `logfile = ${logFile}`,
      "",
    ].join("\n"),
  );
  // PgBouncer refuses to run as root: as root, it runs as the postgres user (Debian's postgresql makes it).
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
    chownSync(root, id("-u"), id("-g"));
  }
  const child = spawn(binary, asRoot ? ["-u", "postgres", config] : [config], { stdio: "ignore" });
  let exit: string | null = null;
  child.once("exit", (code, signal) => (exit = `pgbouncer exited (${code ?? signal})`));
  child.once("error", (error) => (exit = `pgbouncer did not start: ${error.message}`));
  const stopOnExit = () => {
    child.kill("SIGKILL");
    cleanup();
  };
  process.once("exit", stopOnExit);
  try {
    await accepting(port, 10_000, () => exit);
  } catch (error) {
    process.off("exit", stopOnExit);
    child.kill("SIGKILL");
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
    cleanup();
    throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${log}`, { cause: error });
  }
  let stopped: Promise<void> | null = null;
  return {
    port,
    pid: child.pid,
    pooled(databaseUrl) {
      const url = new URL(databaseUrl);
      url.host = `127.0.0.1:${port}`;
      return url.toString();
    },
    stop() {
      process.off("exit", stopOnExit);
      stopped ??= new Promise<void>((resolve) => {
        if (exit !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGINT");
      }).finally(cleanup);
      return stopped;
    },
  };
}
