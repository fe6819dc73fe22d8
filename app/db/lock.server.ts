import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

const LOCK_FILE = "polyglot.lock";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite has no lock of its own: a second process on the same directory would silently lose its writes. The first
 * process to open a data directory owns it until it stops; a second one fails at once and says why.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const owner = { pid: process.pid, host: hostname() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, JSON.stringify(owner));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let holder: { pid?: number; host?: string } = {};
      try {
        holder = JSON.parse(readFileSync(file, "utf8"));
      } catch {
        // An unreadable lock was left by a process that died while writing it.
      }
      const stale = holder.host === owner.host && (typeof holder.pid !== "number" || (holder.pid !== process.pid && !isAlive(holder.pid)));
      if (!stale && holder.pid !== undefined) {
        throw new Error(
          `DATA_DIR ${path.resolve(dir)} is in use by process ${holder.pid} on ${holder.host}. ` +
            `Only one process may use an embedded database; set DATABASE_URL to share PostgreSQL between instances, ` +
            `or remove ${file} if that process no longer runs.`,
          { cause: error },
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock DATA_DIR ${path.resolve(dir)}`);
}
