import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

/** The embedded database's files inside a data directory (DATA_DIR, or a template made like one). */
export const PGLITE_FOLDER = "pglite";
/** A copy in progress: renamed to PGLITE_FOLDER when complete, so a copy cut short is never opened. */
const COPY_PREFIX = ".pglite-copy-";

/** True when `dir` is a data directory holding an initialised embedded database. */
export function holdsDatabase(dir: string): boolean {
  return existsSync(path.join(dir, PGLITE_FOLDER, "PG_VERSION"));
}

function isMissingOrEmpty(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

/** Owner-only modes, as PostgreSQL creates its own files. */
function restrictModes(dir: string) {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const entryPath = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) restrictModes(entryPath);
    else if (entry.isFile()) chmodSync(entryPath, 0o600);
  }
}

/**
 * Gives a data directory without a database a copy of the template's, already initialised and migrated, so the first
 * start skips PGlite's initdb (seconds). The caller holds the data directory's lock. The copy goes to a temporary
 * folder inside the data directory and is renamed into place when complete: a process killed during the copy leaves
 * only a temporary folder, removed on the next start. A data directory that has a database is never touched.
 * Returns whether it copied.
 */
export function copyTemplateDatabase(dataDir: string, templateDir: string): boolean {
  const dir = path.resolve(dataDir);
  for (const name of readdirSync(dir)) {
    if (name.startsWith(COPY_PREFIX)) rmSync(path.join(dir, name), { recursive: true, force: true });
  }
  const target = path.join(dir, PGLITE_FOLDER);
  if (!isMissingOrEmpty(target)) return false;
  if (!holdsDatabase(templateDir)) {
    throw new Error(`DATA_TEMPLATE_DIR ${templateDir} holds no database (${PGLITE_FOLDER}/PG_VERSION is missing)`);
  }
  const temporary = mkdtempSync(path.join(dir, COPY_PREFIX));
  try {
    cpSync(path.join(path.resolve(templateDir), PGLITE_FOLDER), temporary, { recursive: true });
    restrictModes(temporary);
    rmSync(target, { recursive: true, force: true });
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    throw error;
  }
  return true;
}
